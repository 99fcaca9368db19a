// Every benchmark scenario; `npm run bench -- <name...>` runs a subset.
import type { Scenario } from '../lib.js';
import { authScenario } from './auth.js';

export const scenarios: Scenario[] = [authScenario];
