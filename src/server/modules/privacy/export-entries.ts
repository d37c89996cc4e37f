import { strToU8 } from 'fflate';
import type { DbOrTx } from '#server/db/client.js';
import { translatorFor } from '#server/i18n/translator.js';
import type { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { accountFiles, securityLogFiles, sessionFiles } from './export-account.js';
import { campaignFiles } from './export-campaigns.js';
import type { ExportEntry, ExportProgress } from './export-format.js';
import { ledgerFiles, paymentFiles } from './export-money.js';
import { ticketFiles } from './export-tickets.js';
import { webhookFiles } from './export-webhooks.js';

/**
 * Yields the files of one user's export, one at a time (README "A copy of my data" lists each file and
 * field). Every query is filtered by the user's id; secrets, hashes, internal notes, staff audit data and
 * provider raw data are never selected. An attachment is opened only when its turn comes and streamed
 * (decision 0308), so the export never holds more than a chunk of one file.
 */
export async function* exportEntries(
  db: DbOrTx,
  store: AttachmentStore,
  userId: string,
  onProgress: ExportProgress = async () => undefined,
): AsyncGenerator<ExportEntry> {
  const account = yield* accountFiles(db, userId);
  const { user } = account;
  await onProgress(10);

  const sessionDtos = yield* sessionFiles(db, userId);
  await onProgress(20);

  yield* ledgerFiles(db, userId, user);
  await onProgress(35);

  yield* paymentFiles(db, userId);
  yield* campaignFiles(db, userId);
  await onProgress(50);

  yield* ticketFiles(db, store, userId, onProgress);
  await onProgress(75);

  yield* webhookFiles(db, userId);
  await onProgress(85);

  yield* securityLogFiles(db, userId, account, sessionDtos);
  // The one file written for a person to read: in their language (docs/decisions/0328). The data
  // files' names, fields and values stay as they are, whatever the language.
  const tr = translatorFor(user.locale);
  yield {
    name: 'README.txt',
    data: strToU8(
      [
        tr.t(/*i18n*/ 'A copy of the data Olympus holds about {username}, made {date}.', {
          username: user.username,
          date: tr.dateTime(new Date()),
        }),
        tr.t(/*i18n*/ 'Every file is described in the README of Olympus, section "A copy of my data".'),
        tr.t(/*i18n*/ 'Amounts ending in Cents are integer cents of USD (1 credit = 1 USD); times are ISO 8601 in UTC.'),
        '',
      ].join('\r\n'),
    ),
  };
  await onProgress(95);
}
