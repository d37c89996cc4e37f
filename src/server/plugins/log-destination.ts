import { writeSync } from 'node:fs';

/** Above this much unwritten log (stdout not keeping up), new lines are dropped and counted. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * Where the log goes: stdout, off the request's path (docs/decisions/0171). pino's default destination
 * makes one write(2) per line while the request is being answered; this one appends the line to a
 * buffer and writes the buffer in one system call once per turn of the event loop (setImmediate), so
 * under load hundreds of lines go out together. Lines keep their order. On exit (shutdown,
 * `process.exit`, an uncaught exception) what is left is written before the process ends; only a
 * SIGKILL or an out-of-memory abort can lose the lines of that last turn. If stdout cannot take more
 * (a full pipe), the buffer waits and is retried; past 16 MiB new lines are dropped, and a line says
 * how many.
 */
export class BatchedLogDestination {
  private buffer: string[] = [];
  private bytes = 0;
  private scheduled = false;
  private dropped = 0;
  private pending: Buffer | null = null;

  constructor(private readonly fd = 1) {
    process.once('exit', () => this.flush());
  }

  write(line: string): void {
    if (this.bytes + line.length > MAX_BUFFERED_BYTES) {
      this.dropped++;
      return;
    }
    this.buffer.push(line);
    this.bytes += line.length;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is buffered now; what stdout does not take yet is retried shortly. */
  flush(): void {
    this.scheduled = false;
    if (this.buffer.length > 0 || this.dropped > 0) {
      let text = this.buffer.join('');
      if (this.dropped > 0) {
        text += `${JSON.stringify({ level: 40, time: Date.now(), msg: `log output fell behind: ${this.dropped} lines dropped` })}\n`;
        this.dropped = 0;
      }
      this.buffer = [];
      const data = Buffer.from(text);
      this.pending = this.pending ? Buffer.concat([this.pending, data]) : data;
    }
    while (this.pending && this.pending.length > 0) {
      let written: number;
      try {
        written = writeSync(this.fd, this.pending);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          if (!this.scheduled) {
            this.scheduled = true;
            setTimeout(() => this.flush(), 10).unref();
          }
          this.bytes = this.pending.length;
          return;
        }
        // stdout is gone (closed pipe): nothing more can be written.
        this.pending = null;
        break;
      }
      this.pending = written < this.pending.length ? this.pending.subarray(written) : null;
    }
    this.bytes = 0;
  }
}
