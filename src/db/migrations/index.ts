// Every migration, in order. Files are frozen once merged: change the schema with a new file and a new
// line here (a test checks that no file in this folder is missing from this list).
import type { Migration } from 'kysely';
import * as identity from './0001_identity.js';
import * as workerHeartbeats from './0002_worker_heartbeats.js';
import * as crm from './0100_crm.js';
import * as leadCounts from './0110_lead_counts.js';
import * as companies from './0120_companies.js';
import * as crmSettings from './0130_crm_settings.js';
import * as files from './0200_files.js';
import * as eventsWebhooks from './0300_events_webhooks.js';
import * as retention from './0400_retention.js';
import * as webhookSecretRotation from './0410_webhook_secret_rotation.js';
import * as authChangeNotify from './0420_auth_change_notify.js';
import * as importUndeduplicatedCount from './0430_import_undeduplicated_count.js';
import * as automation from './0500_automation.js';
import * as flowFilterSources from './0510_flow_filter_sources.js';
import * as engine from './0600_engine.js';
import * as aiTemplates from './0700_ai_templates.js';
import * as attachments from './0800_attachments.js';
import * as linkedinSeats from './0810_linkedin_seats.js';
import * as email from './0850_email.js';
import * as emailsApi from './0860_emails_api.js';
import * as linkedinMessages from './0870_linkedin_messages.js';
import * as linkedinReadPace from './0890_linkedin_read_pace.js';
import * as enrichment from './0900_enrichment.js';
import * as dataSources from './0910_data_sources.js';
import * as dataSourcesRunningIdx from './0911_data_sources_running_idx.js';
import * as sandboxActionAttachments from './0920_sandbox_action_attachments.js';
import * as citusKeys from './0930_citus_keys.js';
import * as authNotifyOnCoordinator from './0940_auth_notify_on_coordinator.js';
import * as accounts from './0950_accounts.js';
import * as countDeltasOnShards from './0960_count_deltas_on_shards.js';
import * as activities from './1100_activities.js';
import * as readState from './1110_read_state.js';
import * as activityCountsOnShards from './1120_activity_counts_on_shards.js';
import * as inboxHealth from './1150_inbox_health.js';
import * as customTrackingDomains from './1160_custom_tracking_domains.js';
import * as tasksNodeStatsIdx from './1170_tasks_node_stats_idx.js';
import * as seatSelectorHealth from './1185_seat_selector_health.js';
import * as conversionSenders from './1200_conversion_senders.js';
import * as emailThreads from './1210_email_threads.js';
import * as aiLlms from './1220_ai_llms.js';
import * as emailThreadsOnCitus from './1250_email_threads_on_citus.js';
import * as seatInviteNotes from './1260_seat_invite_notes.js';
import * as savedViews from './1270_saved_views.js';
import * as sessionAuthNotify from './1280_session_auth_notify.js';

export const migrations: Record<string, Migration> = {
  '0001_identity': identity,
  '0002_worker_heartbeats': workerHeartbeats,
  '0100_crm': crm,
  '0110_lead_counts': leadCounts,
  '0120_companies': companies,
  '0130_crm_settings': crmSettings,
  '0200_files': files,
  '0300_events_webhooks': eventsWebhooks,
  '0400_retention': retention,
  '0410_webhook_secret_rotation': webhookSecretRotation,
  '0420_auth_change_notify': authChangeNotify,
  '0430_import_undeduplicated_count': importUndeduplicatedCount,
  '0500_automation': automation,
  '0510_flow_filter_sources': flowFilterSources,
  '0600_engine': engine,
  '0700_ai_templates': aiTemplates,
  '0800_attachments': attachments,
  '0810_linkedin_seats': linkedinSeats,
  '0850_email': email,
  '0860_emails_api': emailsApi,
  '0870_linkedin_messages': linkedinMessages,
  '0890_linkedin_read_pace': linkedinReadPace,
  '0900_enrichment': enrichment,
  '0910_data_sources': dataSources,
  '0911_data_sources_running_idx': dataSourcesRunningIdx,
  '0920_sandbox_action_attachments': sandboxActionAttachments,
  '0930_citus_keys': citusKeys,
  '0940_auth_notify_on_coordinator': authNotifyOnCoordinator,
  '0950_accounts': accounts,
  '0960_count_deltas_on_shards': countDeltasOnShards,
  '1100_activities': activities,
  '1110_read_state': readState,
  '1120_activity_counts_on_shards': activityCountsOnShards,
  '1150_inbox_health': inboxHealth,
  '1160_custom_tracking_domains': customTrackingDomains,
  '1170_tasks_node_stats_idx': tasksNodeStatsIdx,
  '1185_seat_selector_health': seatSelectorHealth,
  '1200_conversion_senders': conversionSenders,
  '1210_email_threads': emailThreads,
  '1220_ai_llms': aiLlms,
  '1250_email_threads_on_citus': emailThreadsOnCitus,
  '1260_seat_invite_notes': seatInviteNotes,
  '1270_saved_views': savedViews,
  '1280_session_auth_notify': sessionAuthNotify,
};
