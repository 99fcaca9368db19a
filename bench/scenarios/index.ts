// Every benchmark scenario; `npm run bench -- <name...>` runs a subset.
import type { Scenario } from '../lib.js';
import { analyticsScenario } from './analytics.js';
import { authScenario } from './auth.js';
import { builderScenario } from './builder.js';
import { companiesScenario } from './companies.js';
import { crmScenario } from './crm.js';
import { crmSettingsScenario } from './crm-settings.js';
import { dataSourcesScenario } from './data-sources.js';
import { emailScenario } from './email.js';
import { engineScenario } from './engine.js';
import { enrichmentScenario } from './enrichment.js';
import { filesScenario } from './files.js';
import { flowsScenario } from './flows.js';
import { linkedinScenario } from './linkedin.js';
import { linkedinOptionsScenario } from './linkedin-options.js';
import { linkedinSyncScenario } from './linkedin-sync.js';
import { previewScenario } from './preview.js';
import { tasksScenario } from './tasks.js';
import { templatesScenario } from './templates.js';
import { webScenario } from './web.js';
import { webhooksScenario } from './webhooks.js';

export const scenarios: Scenario[] = [
  authScenario,
  crmScenario,
  crmSettingsScenario,
  webhooksScenario,
  companiesScenario,
  filesScenario,
  templatesScenario,
  engineScenario,
  previewScenario,
  builderScenario,
  analyticsScenario,
  tasksScenario,
  linkedinScenario,
  linkedinOptionsScenario,
  linkedinSyncScenario,
  flowsScenario,
  emailScenario,
  enrichmentScenario,
  dataSourcesScenario,
  webScenario,
];
