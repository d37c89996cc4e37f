/**
 * The ICU MessageFormat subset the server's messages use (docs/decisions/0328): `{name}` placeholders,
 * `{n, plural, one {…} other {…}}` (with `#` for the number and `=0` exact cases) and
 * `{x, select, a {…} other {…}}`. An apostrophe is plain text. Messages are parsed once and cached.
 */
export type MessageValues = Record<string, string | number>;

type Part = string | { name: string } | { name: string; kind: 'plural' | 'select'; cases: Map<string, Part[]> };

function parse(message: string): Part[] {
  let i = 0;
  const parseParts = (inCase: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    while (i < message.length) {
      const c = message[i]!;
      if (c === '}' && inCase) break;
      if (c === '{') {
        if (text) parts.push(text);
        text = '';
        parts.push(parseArgument());
        continue;
      }
      text += c;
      i += 1;
    }
    if (text) parts.push(text);
    return parts;
  };
  const parseArgument = (): Part => {
    const close = message.indexOf('}', i);
    const comma = message.indexOf(',', i);
    if (comma === -1 || comma > close) {
      const name = message.slice(i + 1, close).trim();
      i = close + 1;
      return { name };
    }
    const name = message.slice(i + 1, comma).trim();
    const secondComma = message.indexOf(',', comma + 1);
    const kind = message.slice(comma + 1, secondComma).trim();
    if (kind !== 'plural' && kind !== 'select') throw new Error(`Unsupported argument type "${kind}" in: ${message}`);
    i = secondComma + 1;
    const cases = new Map<string, Part[]>();
    for (;;) {
      while (/\s/.test(message[i] ?? '')) i += 1;
      if (message[i] === '}') {
        i += 1;
        return { name, kind, cases };
      }
      const open = message.indexOf('{', i);
      if (open === -1) throw new Error(`Unclosed argument in: ${message}`);
      const key = message.slice(i, open).trim();
      i = open + 1;
      cases.set(key, parseParts(true));
      i += 1;
    }
  };
  return parseParts(false);
}

const cache = new Map<string, Part[]>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** `message` with its placeholders filled from `values`, plural cases chosen by `locale`'s rules. */
export function formatMessage(locale: string, message: string, values: MessageValues = {}): string {
  let parts = cache.get(message);
  if (!parts) {
    parts = parse(message);
    cache.set(message, parts);
  }
  return render(locale, parts, values, null);
}

function render(locale: string, parts: Part[], values: MessageValues, hash: string | null): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += hash === null ? part : part.replaceAll('#', hash);
    } else if (!('kind' in part)) {
      out += String(values[part.name] ?? `{${part.name}}`);
    } else if (part.kind === 'select') {
      const value = String(values[part.name]);
      out += render(locale, part.cases.get(value) ?? part.cases.get('other') ?? [], values, hash);
    } else {
      const n = Number(values[part.name]);
      let rules = pluralRules.get(locale);
      if (!rules) {
        rules = new Intl.PluralRules(locale);
        pluralRules.set(locale, rules);
      }
      const chosen = part.cases.get(`=${n}`) ?? part.cases.get(rules.select(n)) ?? part.cases.get('other') ?? [];
      out += render(locale, chosen, values, new Intl.NumberFormat(locale).format(n));
    }
  }
  return out;
}
