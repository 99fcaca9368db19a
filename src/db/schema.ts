// The database as Kysely sees it: each module declares its own tables next to its code and this
// file merges them. Keep these in step with the migrations.
import type { JobsTables } from '../jobs/jobs.tables.js';
import type { AccountsTables } from '../modules/accounts/accounts.tables.js';
import type {
  ActivitiesTable,
  ActivityCountDeltasTable,
  LeadMarkersTable,
} from '../modules/activities/activities.tables.js';
import type { AiAgentsTable } from '../modules/ai/ai.tables.js';
import type { AiTemplatesTable } from '../modules/ai-templates/ai-templates.tables.js';
import type { AttachmentsTable } from '../modules/attachments/attachments.tables.js';
import type {
  CompaniesBlacklistTable,
  LeadsBlacklistTable,
} from '../modules/blacklists/blacklists.tables.js';
import type { LinkedinBrowsersTable } from '../modules/browsers/browsers.tables.js';
import type { BulkOperationsTable } from '../modules/bulk-operations/bulk-operations.tables.js';
import type { CompaniesTable } from '../modules/companies/companies.tables.js';
import type { CustomFieldsTable } from '../modules/custom-fields/custom-fields.tables.js';
import type { DataSourcesTable } from '../modules/data-sources/data-sources.tables.js';
import type {
  EmailBodiesTable,
  EmailsTable,
  MailboxErrorsTable,
  MailboxesTable,
  MailboxFoldersTable,
} from '../modules/email/email.tables.js';
import type { CustomTrackingDomainsTable } from '../modules/email/tracking-domains/tracking-domains.tables.js';
import type {
  ContactSourceRotationTable,
  LeadSignalsTable,
  LinkedinReadPaceTable,
  SandboxLinkedinActionsTable,
  SenderChannelStateTable,
} from '../modules/engine/engine.tables.js';
import type { CreditLedgerTable, EnrichmentQueueTable } from '../modules/enrichment/enrichment.tables.js';
import type { EventsTable } from '../modules/events/events.tables.js';
import type { FileExportsTable, FileImportsTable } from '../modules/files/files.tables.js';
import type {
  FlowConversionDeltasTable,
  FlowFilterSourcesTable,
  FlowLeadCountDeltasTable,
  FlowLeadsTable,
  FlowsTable,
  FlowVersionsTable,
  FlowWorkspacesTable,
} from '../modules/flows/flows.tables.js';
import type { IdentityTables } from '../modules/identity/identity.tables.js';
import type { EmailThreadsTable } from '../modules/inbox/inbox.tables.js';
import type { LeadCountDeltasTable, LeadsTable, LeadTombstonesTable } from '../modules/leads/leads.tables.js';
import type {
  LinkedinConversationsTable,
  LinkedinMessagesTable,
  LinkedinSyncStateTable,
  SandboxLinkedinInboxTable,
} from '../modules/linkedin-messages/linkedin-messages.tables.js';
import type { ListsTable } from '../modules/lists/lists.tables.js';
import type { LlmLogsTable, LlmsTable } from '../modules/llm/llm.tables.js';
import type { NotesTable } from '../modules/notes/notes.tables.js';
import type { PipelineStagesTable } from '../modules/pipeline-stages/pipeline-stages.tables.js';
import type { SavedViewsTable } from '../modules/saved-views/saved-views.tables.js';
import type { SenderProfilesTable } from '../modules/senders/senders.tables.js';
import type { TagsTable } from '../modules/tags/tags.tables.js';
import type { TaskCountDeltasTable, TasksTable } from '../modules/tasks/tasks.tables.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../modules/webhooks/webhooks.tables.js';

export interface DB extends IdentityTables, AccountsTables, JobsTables {
  lists: ListsTable;
  tags: TagsTable;
  pipeline_stages: PipelineStagesTable;
  custom_fields: CustomFieldsTable;
  companies: CompaniesTable;
  leads: LeadsTable;
  lead_tombstones: LeadTombstonesTable;
  lead_count_deltas: LeadCountDeltasTable;
  notes: NotesTable;
  activities: ActivitiesTable;
  activity_count_deltas: ActivityCountDeltasTable;
  lead_markers: LeadMarkersTable;
  leads_blacklist: LeadsBlacklistTable;
  companies_blacklist: CompaniesBlacklistTable;
  bulk_operations: BulkOperationsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  file_imports: FileImportsTable;
  file_exports: FileExportsTable;
  sender_profiles: SenderProfilesTable;
  flow_workspaces: FlowWorkspacesTable;
  flows: FlowsTable;
  flow_versions: FlowVersionsTable;
  flow_leads: FlowLeadsTable;
  flow_lead_count_deltas: FlowLeadCountDeltasTable;
  flow_conversion_deltas: FlowConversionDeltasTable;
  flow_filter_sources: FlowFilterSourcesTable;
  tasks: TasksTable;
  task_count_deltas: TaskCountDeltasTable;
  linkedin_browsers: LinkedinBrowsersTable;
  sender_channel_state: SenderChannelStateTable;
  linkedin_read_pace: LinkedinReadPaceTable;
  data_sources: DataSourcesTable;
  lead_signals: LeadSignalsTable;
  contact_source_rotation: ContactSourceRotationTable;
  sandbox_linkedin_actions: SandboxLinkedinActionsTable;
  ai_templates: AiTemplatesTable;
  ai_agents: AiAgentsTable;
  llms: LlmsTable;
  llm_logs: LlmLogsTable;
  attachments: AttachmentsTable;
  mailboxes: MailboxesTable;
  custom_tracking_domains: CustomTrackingDomainsTable;
  mailbox_errors: MailboxErrorsTable;
  mailbox_folders: MailboxFoldersTable;
  email_bodies: EmailBodiesTable;
  emails: EmailsTable;
  email_threads: EmailThreadsTable;
  saved_views: SavedViewsTable;
  linkedin_messages: LinkedinMessagesTable;
  linkedin_conversations: LinkedinConversationsTable;
  linkedin_sync_state: LinkedinSyncStateTable;
  sandbox_linkedin_inbox: SandboxLinkedinInboxTable;
  credit_ledger: CreditLedgerTable;
  enrichment_queue: EnrichmentQueueTable;
}
