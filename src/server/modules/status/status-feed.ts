import type { Translator } from '#server/i18n/translator.js';
import { impactName, incidentStatusName, noticeTime } from '#server/modules/mail/templates/status-subscription.js';
import type { Incident, Maintenance } from '#shared/schemas/status.js';

/** Escapes text for XML content and attribute values. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

interface Entry {
  id: string;
  title: string;
  updated: string;
  published: string;
  summary: string;
}

/**
 * The status page as an Atom 1.0 feed (RFC 4287): one entry per incident (its latest update as the
 * summary, updated whenever it changes) and per maintenance window. Everything is plain text, escaped.
 * The words around what staff wrote are in the reader's language (`tr`, docs/decisions/0331); the
 * titles, messages and descriptions staff wrote stay as written.
 */
export function statusAtomFeed(input: {
  publicUrl: string;
  incidents: Incident[];
  maintenance: Maintenance[];
  now: Date;
  tr: Translator;
}): string {
  const { tr } = input;
  const statusUrl = `${input.publicUrl}/status`;
  const entries: Entry[] = [
    ...input.incidents.map((i) => {
      const latest = i.updates[0];
      return {
        id: `urn:uuid:${i._id}`,
        title:
          i.status === 'resolved'
            ? tr.t(/*i18n*/ 'Resolved: {title}', { title: i.title })
            : tr.t(/*i18n*/ 'Incident: {title}', { title: i.title }),
        updated: i.updatedAt,
        published: i.createdAt,
        summary:
          `${tr.t(/*i18n*/ '{impact} impact, {status}.', { impact: impactName(tr, i.impact), status: incidentStatusName(tr, i.status) })} ${latest ? latest.message : ''}`.trim(),
      };
    }),
    ...input.maintenance.map((m) => ({
      id: `urn:uuid:${m._id}`,
      title:
        m.state === 'completed'
          ? tr.t(/*i18n*/ 'Maintenance completed: {title}', { title: m.title })
          : m.state === 'in_progress'
            ? tr.t(/*i18n*/ 'Maintenance in progress: {title}', { title: m.title })
            : tr.t(/*i18n*/ 'Scheduled maintenance: {title}', { title: m.title }),
      updated: m.createdAt,
      published: m.createdAt,
      summary: `${tr.t(/*i18n*/ 'From {start} to {end}.', { start: noticeTime(tr, new Date(m.startsAt)), end: noticeTime(tr, new Date(m.endsAt)) })} ${m.description}`,
    })),
  ].sort((a, b) => b.updated.localeCompare(a.updated));
  const updated = entries[0]?.updated ?? input.now.toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${tr.locale}">`,
    `  <id>${escapeXml(statusUrl)}</id>`,
    `  <title>${escapeXml(tr.t(/*i18n*/ 'Olympus status: incidents and maintenance'))}</title>`,
    `  <updated>${escapeXml(updated)}</updated>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(statusUrl)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${input.publicUrl}/api/status/feed.atom`)}"/>`,
    '  <author><name>Olympus</name></author>',
  ];
  for (const e of entries) {
    lines.push(
      '  <entry>',
      `    <id>${escapeXml(e.id)}</id>`,
      `    <title type="text">${escapeXml(e.title)}</title>`,
      `    <updated>${escapeXml(e.updated)}</updated>`,
      `    <published>${escapeXml(e.published)}</published>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(statusUrl)}"/>`,
      `    <summary type="text">${escapeXml(e.summary)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
