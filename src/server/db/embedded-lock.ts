import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database's files belong to one process at a time: PGlite keeps its pages in memory and
 * writes them back on its own schedule, so a second process on the same directory (the operator command
 * while the server runs, or a second server) corrupts what the first one holds. The first to open the
 * directory writes its process id into `DATA_DIR/pglite.lock`; another process finds it there, alive,
 * and is refused with this error. A lock whose process is gone (a crash) is taken over.
 */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), most likely the running server. ` +
        'Stop it first (the embedded database belongs to one process), or run the server on PostgreSQL (DATABASE_URL): ' +
        'then the operator command can run beside it.',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else; still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Directories this process holds now (a lock with our own pid but not listed here was left by a dead process that had it). */
const heldHere = new Set<string>();

/** Takes the directory for this process; answers the release. Throws EmbeddedDatabaseInUseError when taken. */
export function lockEmbeddedDirectory(dataDir: string): () => void {
  const file = path.resolve(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(file);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      const inUse = holder === process.pid ? heldHere.has(file) : Number.isInteger(holder) && holder > 0 && alive(holder);
      if (inUse) throw new EmbeddedDatabaseInUseError(dataDir, holder);
      // Left by a process that is gone: take it over.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${file}`);
}
