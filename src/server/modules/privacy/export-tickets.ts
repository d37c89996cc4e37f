import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import type { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { ticketAttachments, ticketMessages, tickets } from '#server/modules/support/tickets/tickets.tables.js';
import { iso, json, type ExportEntry, type ExportProgress } from './export-format.js';

/** A name safe in a ZIP path: no folders, no control characters, no dots at the start. */
const safeName = (name: string) =>
  name
    .replace(/[^\w.\- ]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100) || 'file';

/** The attachments move the progress from 50 to 75, one step per file. */
export async function* ticketFiles(
  db: DbOrTx,
  store: AttachmentStore,
  userId: string,
  onProgress: ExportProgress,
): AsyncGenerator<ExportEntry> {
  // tickets.json and attachments/: replies and notices only; an internal note (and a file on one) never.
  const ticketRows = await db.select().from(tickets).where(eq(tickets.userId, userId)).orderBy(asc(tickets.createdAt));
  const ticketIds = ticketRows.map((t) => t.id);
  const messageRows = ticketIds.length
    ? await db
        .select()
        .from(ticketMessages)
        .where(and(inArray(ticketMessages.ticketId, ticketIds), ne(ticketMessages.kind, 'internal')))
        .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id))
    : [];
  const fileRows = messageRows.length
    ? await db
        .select()
        .from(ticketAttachments)
        .where(
          inArray(
            ticketAttachments.messageId,
            messageRows.map((m) => m.id),
          ),
        )
        .orderBy(asc(ticketAttachments.createdAt))
    : [];
  // Each file is streamed into the ZIP before tickets.json is written, so the listing knows which are there.
  const filePaths = new Map<string, string | null>();
  let filesDone = 0;
  for (const f of fileRows) {
    const ticket = ticketRows.find((t) => t.id === f.ticketId)!;
    const zipPath = `attachments/${ticket.number}/${f.id}-${safeName(f.filename)}`;
    const opened = await store.openStream(f.storageKey).catch(() => null);
    filePaths.set(f.id, opened ? zipPath : null); // a file gone from storage: the listing says so
    if (opened) yield { name: zipPath, stream: opened.stream };
    filesDone += 1;
    const percent = 50 + Math.floor((25 * filesDone) / fileRows.length);
    if (percent > 50 + Math.floor((25 * (filesDone - 1)) / fileRows.length)) await onProgress(percent);
  }
  yield {
    name: 'tickets.json',
    data: json({
      tickets: ticketRows.map((t) => ({
        id: t.id,
        number: t.number,
        subject: t.subject,
        category: t.category,
        priority: t.priority,
        status: t.status,
        createdAt: iso(t.createdAt),
        lastMessageAt: iso(t.lastMessageAt),
        closedAt: iso(t.closedAt),
        rating: t.rating !== null ? { score: t.rating, comment: t.ratingComment, ratedAt: iso(t.ratedAt) } : null,
        messages: messageRows
          .filter((m) => m.ticketId === t.id)
          .map((m) => ({
            id: m.id,
            author: m.author === 'staff' ? 'support' : 'you',
            kind: m.kind,
            body: m.body,
            createdAt: iso(m.createdAt),
            attachments: fileRows
              .filter((f) => f.messageId === m.id)
              .map((f) => ({
                id: f.id,
                filename: f.filename,
                contentType: f.contentType,
                size: f.size,
                file: filePaths.get(f.id) ?? null,
              })),
          })),
      })),
    }),
  };
}
