/** Every *.test.ts under src/ and test/, relative to root, sorted. */
export function testFiles(root?: string): string[];
/** The test files (relative to root) that read TEST_DATABASE_URL, directly or through what they import. */
export function databaseTestFiles(root?: string, files?: string[]): string[];
