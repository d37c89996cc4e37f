// A node:test reporter that writes one JSON line: how many of the reliability tests passed, failed and
// were skipped, and the names of the failed ones. `npm test` reads it when it runs this suite beside the
// browser tests (scripts/test.mjs), so its counts come from the runner, not from reading its console.
export default async function* summary(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, failedNames: [] };
  for await (const event of source) {
    // Nesting 0: a test of a file, or a file that failed to load; a subtest is counted with its parent.
    if (event.data?.nesting !== 0) continue;
    if (event.type === 'test:pass') {
      if (event.data.skip || event.data.todo) counts.skipped++;
      else counts.passed++;
    } else if (event.type === 'test:fail') {
      counts.failed++;
      const cause = event.data.details?.error?.cause ?? event.data.details?.error;
      counts.failedNames.push(`${event.data.file ?? ''} › ${event.data.name}: ${String(cause?.message ?? cause ?? '').split('\n')[0]}`);
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
