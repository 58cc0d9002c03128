import { readFileSync } from 'node:fs';
import { mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

// The tests run the sources: the version the build sets (tsup.config.ts) set here too.
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default mergeConfig(packageTestConfig(), {
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
});
