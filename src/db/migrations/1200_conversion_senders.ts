import { type Kysely, sql } from 'kysely';

// Team analytics (POST /flows/api/statistics/team) count conversions per sender and per day. The engine
// now writes the enrollment's sender beside each conversion delta (older rows keep null: "no sender"),
// and a (team, occurred_at) index lets a period read only its hours of deltas instead of the team's
// whole history of them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table flow_conversion_deltas add column sender_profile_uuid uuid;
    create index flow_conversion_deltas_team_time_idx on flow_conversion_deltas (team_id, occurred_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index flow_conversion_deltas_team_time_idx;
    alter table flow_conversion_deltas drop column sender_profile_uuid;
  `.execute(db);
}
