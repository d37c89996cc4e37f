import { and, eq } from 'drizzle-orm';
import type { Ticket } from '#shared/schemas/tickets.js';
import type { Tx } from '#server/db/client.js';
import { AppError, notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import type { CheckedFile } from './attachments.js';
import { answerWithIdIn } from './staff-answers.js';
import { emitRuleEvents } from './ticket-events.js';
import {
  addMessage,
  auditView,
  findAny,
  findOwned,
  parseId,
  staffActor,
  withMessages,
  type Requester,
  type StaffMember,
  type TicketDeps,
} from './ticket-rows.js';
import { ticketAttachments, ticketMessages, type TicketRow } from './tickets.tables.js';

/**
 * Files on tickets: attaching a checked file as a message (requester or staff) and reading one back.
 * The checks and the store of the bytes are attachments.ts (decision 0190).
 */

/** Where files are kept: the database (rows) and the attachment store (bytes). */
type FileDeps = Pick<TicketDeps, 'db' | 'files'>;

/**
 * A requester attaches a checked file: it comes as a new message (the note, or "Attached <name>"),
 * like a reply. The bytes are written first; a failed insert removes them again.
 */
export async function attachAsRequester(
  deps: TicketDeps,
  requester: Requester,
  id: string,
  file: CheckedFile & { bytes: Buffer },
  note: string | undefined,
): Promise<Ticket> {
  const ticket = await findOwned(deps.db, requester, id);
  if (ticket.status === 'closed') throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
  const row = await withStoredFile(deps, file, async (tx, key) => {
    const locked = await findOwned(tx, requester, id);
    if (locked.status === 'closed') throw unprocessable('This ticket is closed. Open a new ticket to continue.', 'TICKET_CLOSED');
    const added = await addMessage(
      tx,
      locked,
      'requester',
      requester.kind === 'user' ? requester.userId : null,
      note || `Attached ${file.filename}`,
      'open',
    );
    await tx.insert(ticketAttachments).values({
      ticketId: locked.id,
      messageId: added.messageId,
      storageKey: key,
      filename: file.filename,
      contentType: file.contentType,
      size: file.bytes.length,
    });
    await emitRuleEvents(deps.ruleEvents, tx, locked, added.ticket, 'requester', added.messageId); // automation rules (decision 0294)
    return added.ticket;
  });
  return withMessages(deps.db, row, 'requester');
}

/** Staff attach a file as a visible answer (audited like one). */
export async function attachAsStaff(
  deps: TicketDeps,
  staff: StaffMember,
  id: string,
  file: CheckedFile & { bytes: Buffer },
  note: string | undefined,
): Promise<Ticket> {
  await findAny(deps.db, id);
  const row = await withStoredFile(deps, file, async (tx, key) => {
    const ticket = await findAny(tx, id);
    const added = await answerWithIdIn(deps, tx, staff, ticket, note || `Attached ${file.filename}`);
    await tx.insert(ticketAttachments).values({
      ticketId: ticket.id,
      messageId: added.messageId,
      storageKey: key,
      filename: file.filename,
      contentType: file.contentType,
      size: file.bytes.length,
    });
    await recordAudit(tx, {
      actor: await staffActor(tx, staff),
      action: 'ticket.file_attached',
      targetType: 'ticket',
      targetId: ticket.id,
      before: auditView(ticket),
      after: { ...auditView(added.ticket), file: { filename: file.filename, contentType: file.contentType, size: file.bytes.length } },
    });
    return added.ticket;
  });
  return withMessages(deps.db, row, 'staff');
}

/** A file of the requester's own ticket, never one on an internal note; 404 otherwise. */
export async function attachmentForRequester(deps: FileDeps, requester: Requester, ticketId: string, attachmentId: string) {
  const ticket = await findOwned(deps.db, requester, ticketId);
  return readAttachment(deps, ticket.id, attachmentId, true);
}

export async function attachmentForStaff(deps: FileDeps, ticketId: string, attachmentId: string) {
  const ticket = await findAny(deps.db, ticketId);
  return readAttachment(deps, ticket.id, attachmentId, false);
}

async function readAttachment({ db, files }: FileDeps, ticketId: string, attachmentId: string, requesterOnly: boolean) {
  const fileId = parseId(attachmentId);
  if (!fileId || !files) throw notFound('Attachment not found');
  const [row] = await db
    .select({ file: ticketAttachments, kind: ticketMessages.kind })
    .from(ticketAttachments)
    .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
    .where(and(eq(ticketAttachments.id, fileId), eq(ticketAttachments.ticketId, ticketId)))
    .limit(1);
  if (!row || (requesterOnly && row.kind === 'internal')) throw notFound('Attachment not found');
  const bytes = await files.read(row.file.storageKey).catch(() => {
    throw notFound('Attachment not found');
  });
  return { filename: row.file.filename, contentType: row.file.contentType, size: bytes.length, bytes };
}

async function withStoredFile(
  { db, files }: FileDeps,
  file: { bytes: Buffer },
  work: (tx: Tx, key: string) => Promise<TicketRow>,
): Promise<TicketRow> {
  if (!files) throw new AppError('ATTACHMENTS_UNAVAILABLE', 'Attachments are not available');
  const key = await files.save(file.bytes);
  try {
    return await db.transaction((tx) => work(tx, key));
  } catch (err) {
    await files.remove(key);
    throw err;
  }
}
