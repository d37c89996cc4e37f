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

const clock = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The status page as an Atom 1.0 feed (RFC 4287): one entry per incident (its latest update as the
 * summary, updated whenever it changes) and per maintenance window. Everything is plain text, escaped.
 */
export function statusAtomFeed(input: { publicUrl: string; incidents: Incident[]; maintenance: Maintenance[]; now: Date }): string {
  const statusUrl = `${input.publicUrl}/status`;
  const entries: Entry[] = [
    ...input.incidents.map((i) => {
      const latest = i.updates[0];
      return {
        id: `urn:uuid:${i._id}`,
        title: `${i.status === 'resolved' ? 'Resolved' : 'Incident'}: ${i.title}`,
        updated: i.updatedAt,
        published: i.createdAt,
        summary: `${i.impact} impact, ${i.status}. ${latest ? latest.message : ''}`.trim(),
      };
    }),
    ...input.maintenance.map((m) => ({
      id: `urn:uuid:${m._id}`,
      title: `${m.state === 'completed' ? 'Maintenance completed' : m.state === 'in_progress' ? 'Maintenance in progress' : 'Scheduled maintenance'}: ${m.title}`,
      updated: m.createdAt,
      published: m.createdAt,
      summary: `From ${clock(m.startsAt)} to ${clock(m.endsAt)}. ${m.description}`,
    })),
  ].sort((a, b) => b.updated.localeCompare(a.updated));
  const updated = entries[0]?.updated ?? input.now.toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(statusUrl)}</id>`,
    '  <title>Olympus status: incidents and maintenance</title>',
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
