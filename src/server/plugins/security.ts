import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '#server/config.js';

/**
 * The sha256 of the one inline script of src/web/index.html, which sets the colour theme before the first
 * paint (decision 0240). Changing that script changes its hash: spa-fallback.test.ts hashes the inline
 * scripts of the served page and fails until this matches.
 */
export const THEME_SCRIPT_HASH = "'sha256-TYcNM6YMBOEyh2htNTIm1LGWedaTiDAThBf7S9x/bnA='";

/**
 * A strict Content-Security-Policy: scripts only from this origin (plus the real bot-check and Telegram
 * widgets when those providers are configured) and the theme script by its hash. Styles allow inline because the toast library injects
 * its styles at run time; no script can be injected through a style.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const scriptSrc = ["'self'", THEME_SCRIPT_HASH];
  const frameSrc = ["'self'"];
  if (!config.turnstile.sandbox) {
    scriptSrc.push('https://challenges.cloudflare.com');
    frameSrc.push('https://challenges.cloudflare.com');
  }
  if (!config.sandboxes.includes('telegram')) {
    scriptSrc.push('https://telegram.org');
    frameSrc.push('https://oauth.telegram.org');
  }
  return {
    defaultSrc: ["'self'"],
    scriptSrc,
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    frameSrc,
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: config.env === 'production' ? [] : (null as unknown as string[]),
  };
}

/**
 * Helmet's headers for this configuration, computed once. @fastify/helmet rebuilt the middleware (and
 * re-parsed the CSP directives) on every request, about 5% of the CPU of a small API call; nothing in
 * our headers varies per request (no nonces), so they are captured once and copied onto each reply.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  const middleware = helmet({
    contentSecurityPolicy: { directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.env === 'production',
  });
  middleware({} as IncomingMessage, capture as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}
