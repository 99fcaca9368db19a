import { type Kysely, sql } from 'kysely';

// Keys Citus can enforce. Citus enforces a unique index of a distributed table on each shard, so it
// refuses one that lacks the distribution column (team_id). Two were unique across teams:
// - a seat's integer id: an identity, unique by construction; the index stays for lookups by id;
// - a login link key's hash: 256 random bits, unique by construction; the public link carries no
//   team, so its lookup is the one cross-team read of the seats (src/db/citus.ts, CROSS_TEAM).
// And Citus refuses ON DELETE SET NULL on a foreign key that includes team_id: a data source's link
// to its sender profile is cleared by the profile's deletion itself (deleteSenderProfile).
// 0600, 0810 and 0910 no longer create these forms; databases migrated before lose them here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists linkedin_browsers_id_key;
    create index if not exists linkedin_browsers_id_idx on linkedin_browsers (id);
    drop index if exists linkedin_browsers_access_key_idx;
    create index if not exists linkedin_browsers_access_key_hash_idx on linkedin_browsers (access_key_hash)
      where access_key_hash is not null;
    alter table data_sources drop constraint if exists data_sources_team_id_sender_profile_uuid_fkey;
    alter table data_sources add constraint data_sources_team_id_sender_profile_uuid_fkey
      foreign key (team_id, sender_profile_uuid) references sender_profiles (team_id, uuid);
  `.execute(db);
}
