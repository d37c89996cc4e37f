import { strToU8 } from 'fflate';

/** One file of the ZIP: bytes made here (JSON, CSV, text), or a ticket attachment read from its store. */
export type ExportEntry = { name: string; data: Uint8Array } | { name: string; stream: AsyncIterable<Uint8Array> };

/** Called as the export moves on, with how far it has got in percent. */
export type ExportProgress = (percent: number) => Promise<void>;

export const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
export const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
