import type { Config } from '../config.js';

/**
 * A strict Content-Security-Policy: scripts only from this origin (plus the real bot-check and Telegram
 * widgets when those providers are configured). Styles allow inline because the toast library injects
 * its styles at run time; no script can be injected through a style.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const scriptSrc = ["'self'"];
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
