/**
 * The browser's session storage: local storage keys and cookies of docs/product.md#browser-state, #constants.
 * Every read and write of those keys goes through here, so the API client and the session store agree.
 */
import { REMEMBER_ME_LIFETIME_S, SESSION_COOKIE_MAX_AGE_S, STORAGE_KEYS, TOKEN_COOKIE } from '#shared/constants';
import { readTokenClaims } from '#shared/token';
import { setThemeChoice } from './theme';

export type UserType = 'user' | 'guest';

/** The guest cookie follows the token cookie's rules (docs/product.md#constants); its name is the storage key. */
const GUEST_COOKIE_NAME = STORAGE_KEYS.guestId;

// Local storage can throw (private mode, disabled storage, quota); the app keeps working in memory then.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: nothing to persist to.
  }
}

export function setCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=${TOKEN_COOKIE.path}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=${TOKEN_COOKIE.sameSite}${secure}`;
}

export function getCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [rawName, ...rest] = part.trim().split('=');
    if (rawName === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function removeCookie(name: string): void {
  document.cookie = `${name}=; Path=${TOKEN_COOKIE.path}; Max-Age=0; SameSite=${TOKEN_COOKIE.sameSite}`;
}

/** 30 days with remember me, one day otherwise (docs/product.md#constants). */
export function tokenCookieMaxAge(rememberMe: boolean): number {
  return rememberMe ? REMEMBER_ME_LIFETIME_S : SESSION_COOKIE_MAX_AGE_S;
}

/** A token issued for longer than a day came from a remember-me sign-in; its refreshed cookie keeps that lifetime. */
export function isLongLivedToken(token: string): boolean {
  const claims = readTokenClaims(token);
  if (!claims?.exp || !claims.iat) return false;
  return claims.exp - claims.iat > SESSION_COOKIE_MAX_AGE_S;
}

export const storage = {
  getToken: (): string | null => read(STORAGE_KEYS.token),
  /** Stores the token in local storage and in the `token` cookie. */
  setToken(token: string, rememberMe = isLongLivedToken(token)): void {
    write(STORAGE_KEYS.token, token);
    setCookie(TOKEN_COOKIE.name, token, tokenCookieMaxAge(rememberMe));
  },
  removeToken(): void {
    write(STORAGE_KEYS.token, null);
    removeCookie(TOKEN_COOKIE.name);
  },

  getGuestId: (): string | null => read(STORAGE_KEYS.guestId),
  setGuestId(guestId: string): void {
    write(STORAGE_KEYS.guestId, guestId);
    setCookie(GUEST_COOKIE_NAME, guestId, SESSION_COOKIE_MAX_AGE_S);
  },
  removeGuestId(): void {
    write(STORAGE_KEYS.guestId, null);
    removeCookie(GUEST_COOKIE_NAME);
  },

  getUserType(): UserType | null {
    const value = read(STORAGE_KEYS.userType);
    return value === 'user' || value === 'guest' ? value : null;
  },
  setUserType: (type: UserType | null): void => write(STORAGE_KEYS.userType, type),

  getUserRole: (): string | null => read(STORAGE_KEYS.userRole),
  setUserRole: (role: string | null): void => write(STORAGE_KEYS.userRole, role),

  getUserSubroles(): string[] {
    const raw = read(STORAGE_KEYS.userSubroles);
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
    } catch {
      return [];
    }
  },
  setUserSubroles: (subroles: string[] | null): void =>
    write(STORAGE_KEYS.userSubroles, subroles === null ? null : JSON.stringify(subroles)),

  getSessionData<T = unknown>(): T | null {
    const raw = read(STORAGE_KEYS.sessionData);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setSessionData: (data: unknown): void => write(STORAGE_KEYS.sessionData, data === null ? null : JSON.stringify(data)),

  /** Removes every session key (not other features' keys such as reward claims). */
  clearSession(): void {
    storage.removeToken();
    storage.removeGuestId();
    write(STORAGE_KEYS.userType, null);
    write(STORAGE_KEYS.userRole, null);
    write(STORAGE_KEYS.userSubroles, null);
    write(STORAGE_KEYS.sessionData, null);
  },

  /**
   * Logout clears all of local storage (docs/product.md#states), plus the session cookies: the colour
   * theme too, so the page follows the device again at once (decision 0240); only the language chosen
   * on this device is kept.
   */
  clearAll(): void {
    removeCookie(TOKEN_COOKIE.name);
    removeCookie(GUEST_COOKIE_NAME);
    // The language stays: it is the device's, and the page keeps speaking it (decision 0326).
    const locale = read(STORAGE_KEYS.locale);
    try {
      window.localStorage.clear();
    } catch {
      // Storage unavailable.
    }
    if (locale !== null) write(STORAGE_KEYS.locale, locale);
    setThemeChoice('system');
  },
};
