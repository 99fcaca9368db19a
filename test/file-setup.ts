// Runs in every test file before its tests (vitest setupFiles): what each file must leave behind is nothing.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';

// Registered first, so it runs after the file's own afterAll hooks (hooks run as a stack).
afterAll(removeTempDirs);
