import { type Kysely, sql } from 'kysely';

// Indexes for tags, custom fields, notes and blacklists that 0100 did not have.
//
// Custom field keys: the jsonb_path_ops GIN index on custom_fields serves containment (`@>`) and
// jsonpath tests that compare a value, but a bare key test (`?`, or `@? '$."key"'`) makes it return
// every row of the index. Deleting a field definition must find the records holding that key, and a
// "field is set" filter wants the same, so the record keys get their own small GIN index.
//
// Blacklists: a record is checked against its team's entries by probing each identifier (an entry
// that matches sets at least one field equal to the record's), so every identifier column is indexed.
// Identical entries are refused (the same values in every column, empty counting as a value).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function leadflow_jsonb_keys(value jsonb) returns text[]
      language sql immutable strict parallel safe
      as $$ select coalesce(array(select jsonb_object_keys(value)), '{}') $$;

    -- Partial: records without custom field values (most of them) cost nothing to write. Queries
    -- repeat the predicate (custom_fields <> '{}') so the planner can use the index.
    create index leads_team_custom_field_keys_idx
      on leads using gin (team_id, leadflow_jsonb_keys(custom_fields)) where custom_fields <> '{}'::jsonb;
    create index companies_team_custom_field_keys_idx
      on companies using gin (team_id, leadflow_jsonb_keys(custom_fields)) where custom_fields <> '{}'::jsonb;

    create index custom_fields_team_order_idx on custom_fields (team_id, object, "order");
    create index notes_team_updated_idx on notes (team_id, updated_at, uuid);
    create index tags_team_created_idx on tags (team_id, created_at, uuid);

    create index leads_blacklist_team_linkedin_idx on leads_blacklist (team_id, linkedin) where linkedin is not null;
    create index leads_blacklist_team_ln_id_idx on leads_blacklist (team_id, ln_id) where ln_id is not null;
    create index leads_blacklist_team_email_idx on leads_blacklist (team_id, email) where email is not null;
    create index leads_blacklist_team_name_idx on leads_blacklist (team_id, name) where name is not null;
    create index leads_blacklist_team_company_idx on leads_blacklist (team_id, company_name)
      where company_name is not null;
    create unique index leads_blacklist_team_entry_key on leads_blacklist (
      team_id, coalesce(linkedin, ''), coalesce(ln_id, ''), coalesce(email, ''), coalesce(name, ''),
      coalesce(company_name, '')
    );

    create index companies_blacklist_team_linkedin_idx on companies_blacklist (team_id, linkedin)
      where linkedin is not null;
    create index companies_blacklist_team_ln_id_idx on companies_blacklist (team_id, ln_id) where ln_id is not null;
    create index companies_blacklist_team_domain_idx on companies_blacklist (team_id, domain) where domain is not null;
    create index companies_blacklist_team_name_idx on companies_blacklist (team_id, name) where name is not null;
    create unique index companies_blacklist_team_entry_key on companies_blacklist (
      team_id, coalesce(linkedin, ''), coalesce(ln_id, 0), coalesce(domain, ''), coalesce(name, '')
    );
  `.execute(db);
}
