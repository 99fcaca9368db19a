import { type Kysely, sql } from 'kysely';

// The e-mails API (src/modules/email/emails/): one index per list filter that 0850 did not cover
// (addresses, status alone, a flow's node), the update-time sort, and the text search of e-mail bodies.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index emails_team_from_idx on emails (team_id, lower(from_email), sent_at);
    create index emails_team_to_idx on emails (team_id, lower(to_email), sent_at);
    create index emails_team_status_idx on emails (team_id, status, sent_at);
    create index emails_team_updated_idx on emails (team_id, updated_at, uuid);
    create index emails_team_flow_node_idx on emails (team_id, flow_uuid, flow_node_id, sent_at)
      where flow_uuid is not null;
    create index emails_team_body_idx on emails (team_id, email_body_uuid);
    create index email_bodies_team_updated_idx on email_bodies (team_id, updated_at, uuid);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index emails_team_from_idx;
    drop index emails_team_to_idx;
    drop index emails_team_status_idx;
    drop index emails_team_updated_idx;
    drop index emails_team_flow_node_idx;
    drop index emails_team_body_idx;
    drop index email_bodies_team_updated_idx;
  `.execute(db);
}
