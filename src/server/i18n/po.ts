/**
 * Reads the PO catalogues `npm run i18n:extract` writes (docs/decisions/0328): each entry's msgid (the
 * English message, which is its key) and msgstr. Only what Lingui's PO formatter writes is read: one
 * msgctxt, msgid and msgstr per entry, each a quoted string that may continue on the following lines.
 * Comments and the header entry (an empty msgid) are skipped; an empty msgstr is no translation.
 */
export function parsePo(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  let field: 'msgctxt' | 'msgid' | 'msgstr' | null = null;
  let entry: Record<'msgctxt' | 'msgid' | 'msgstr', string> = { msgctxt: '', msgid: '', msgstr: '' };
  const flush = () => {
    if (entry.msgid && entry.msgstr) entries.set(entry.msgctxt ? `${entry.msgctxt}\u0004${entry.msgid}` : entry.msgid, entry.msgstr);
    entry = { msgctxt: '', msgid: '', msgstr: '' };
    field = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      if (field === 'msgstr') flush();
      continue;
    }
    const start = /^(msgctxt|msgid|msgstr)\s+(".*")$/.exec(line);
    if (start) {
      const name = start[1] as 'msgctxt' | 'msgid' | 'msgstr';
      if (field === 'msgstr' && name !== 'msgstr') flush();
      field = name;
      entry[name] = unquote(start[2]!);
    } else if (line.startsWith('"') && field) {
      entry[field] += unquote(line);
    }
  }
  flush();
  return entries;
}

function unquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/\\(["\\nt])/g, (_, c: string) => ({ n: '\n', t: '\t', '"': '"', '\\': '\\' })[c]!);
}
