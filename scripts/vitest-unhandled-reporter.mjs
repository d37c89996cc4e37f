// A Vitest reporter that writes to the file named by VITEST_UNHANDLED_FILE the run's errors that belong
// to no test: unhandled ones (a rejection nobody awaited, an error thrown after a test ended) and those
// of a file or a describe block (a beforeAll or afterAll that threw or timed out). Vitest fails the run
// for them but its JSON report leaves them out or keeps only a file's first message; `npm test` reads
// this file to name them in its summary, so a failure of that kind says where it came from even when
// only the end of the output is kept.
import { writeFileSync } from 'node:fs';

const describe = (e, where) => ({
  name: e.name,
  message: e.message,
  stack: (e.stack ?? '').split('\n').slice(0, 12).join('\n'),
  ...where,
});

export default class UnhandledErrorsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const file = process.env.VITEST_UNHANDLED_FILE;
    if (!file) return;
    const errors = unhandledErrors.map((e) =>
      describe(e, { kind: 'unhandled', testFile: e.VITEST_TEST_PATH, testName: e.VITEST_TEST_NAME }),
    );
    for (const module of testModules) {
      for (const e of module.errors()) errors.push(describe(e, { kind: 'file', testFile: module.moduleId }));
      for (const suite of module.children.allSuites()) {
        for (const e of suite.errors()) errors.push(describe(e, { kind: 'suite', testFile: module.moduleId, testName: suite.fullName }));
      }
    }
    writeFileSync(file, JSON.stringify(errors, null, 2));
  }
}
