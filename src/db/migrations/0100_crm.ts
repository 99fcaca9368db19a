import { type Kysely, sql } from 'kysely';

// The CRM: lists, tags, pipeline stages, custom fields, companies, contacts (leads), notes and
// blacklists. Every table is keyed by (team_id, uuid) and every index leads with team_id, so one
// team's queries never walk another team's rows and the schema can be distributed by team later.
//
// Contacts and companies carry their tags (uuid[]) and custom field values (jsonb keyed by custom
// field uuid) inline: a record reads in one row, and tag/custom-field filters and mass actions are a
// single set-based statement over one table, served by GIN indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;
    create extension if not exists btree_gin;

    create table lists (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      name text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index lists_team_created_idx on lists (team_id, created_at, uuid);

    create table tags (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      name text not null,
      color text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index tags_team_name_key on tags (team_id, lower(name));

    create table pipeline_stages (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      name text not null,
      object text not null check (object in ('lead', 'company')),
      type text not null default 'custom',
      category text not null check (category in ('cold', 'engaging', 'positive', 'negative')),
      "order" integer not null default 0,
      -- Seeded stages cannot be deleted; custom ones can.
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index pipeline_stages_team_object_idx on pipeline_stages (team_id, object, category, "order");

    create table custom_fields (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text not null,
      object text not null check (object in ('lead', 'company')),
      type text not null default 'string' check (type in ('string', 'number', 'boolean', 'date')),
      "order" integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create unique index custom_fields_team_name_key on custom_fields (team_id, object, lower(name));

    create table companies (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      data_source_uuid uuid,
      pipeline_stage_uuid uuid,
      name text,
      domain text,
      website text,
      ln_id bigint,
      linkedin text,
      facebook text,
      twitter text,
      phone text,
      hq_raw_address text,
      hq_location jsonb,
      logo_url text,
      industry text,
      employees_range text,
      employees_on_linkedin integer,
      followers integer,
      year_established integer,
      about text,
      tagline text,
      hashtags text[],
      specialities text[],
      network_type text,
      deal_size numeric,
      lists uuid[] not null default '{}',
      tags uuid[] not null default '{}',
      custom_fields jsonb not null default '{}',
      status text not null default 'ok',
      linkedin_status text not null default 'need_enrichment',
      is_blacklisted boolean not null default false,
      last_enrich_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      foreign key (team_id, pipeline_stage_uuid) references pipeline_stages (team_id, uuid)
    );
    -- Deduplication keys (LinkedIn id, LinkedIn slug, website domain) are unique per team.
    create unique index companies_team_ln_id_key on companies (team_id, ln_id) where ln_id is not null;
    create unique index companies_team_linkedin_key on companies (team_id, linkedin) where linkedin is not null;
    create unique index companies_team_domain_key on companies (team_id, domain) where domain is not null;
    create index companies_team_name_idx on companies (team_id, lower(name));
    create index companies_team_created_idx on companies (team_id, created_at, uuid);
    create index companies_team_updated_idx on companies (team_id, updated_at, uuid);
    create index companies_team_stage_idx on companies (team_id, pipeline_stage_uuid);
    create index companies_team_lists_idx on companies using gin (team_id, lists);
    create index companies_team_tags_idx on companies using gin (team_id, tags);
    create index companies_team_custom_fields_idx on companies using gin (team_id, custom_fields jsonb_path_ops);
    create index companies_team_search_idx on companies using gin (
      team_id, (lower(coalesce(name, '') || ' ' || coalesce(domain, ''))) gin_trgm_ops
    );

    create table leads (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      sender_profile_uuid uuid,
      list_uuid uuid not null,
      data_source_uuid uuid,
      pipeline_stage_uuid uuid not null,
      company_uuid uuid,
      name text,
      first_name text,
      last_name text,
      company_name text,
      company_ln_id text,
      position text,
      headline text,
      about text,
      avatar_url text,
      ln_member_id bigint,
      ln_id text,
      sn_id text,
      linkedin text,
      facebook text,
      twitter text,
      work_email text,
      personal_email text,
      work_phone_number text,
      personal_phone_number text,
      connections_number integer,
      followers_number integer,
      primary_language text,
      supported_languages text[],
      has_open_profile smallint,
      has_verified_profile smallint,
      has_premium smallint,
      experience jsonb,
      posts jsonb,
      educations jsonb,
      skills text[],
      raw_address text,
      location jsonb,
      tags uuid[] not null default '{}',
      custom_fields jsonb not null default '{}',
      status text not null default 'ok',
      linkedin_status text not null default 'need_enrichment',
      email_status text,
      is_blacklisted boolean not null default false,
      last_automation_approve_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Free-text search (filter.q) over name, e-mails, position, headline and company name.
      search_text text generated always as (lower(
        coalesce(name, '') || ' ' || coalesce(work_email, '') || ' ' || coalesce(personal_email, '') || ' ' ||
        coalesce(position, '') || ' ' || coalesce(headline, '') || ' ' || coalesce(company_name, '')
      )) stored,
      primary key (team_id, uuid),
      foreign key (team_id, list_uuid) references lists (team_id, uuid),
      foreign key (team_id, pipeline_stage_uuid) references pipeline_stages (team_id, uuid)
    );
    -- The spec's deduplication keys, in its order; unique per team so concurrent writers cannot
    -- create the same person twice. Name + company is the key only for contacts with no other
    -- identifier (two people of the same name at one company usually differ in LinkedIn or e-mail).
    create unique index leads_team_ln_member_id_key on leads (team_id, ln_member_id) where ln_member_id is not null;
    create unique index leads_team_ln_id_key on leads (team_id, ln_id) where ln_id is not null;
    create unique index leads_team_sn_id_key on leads (team_id, sn_id) where sn_id is not null;
    create unique index leads_team_linkedin_key on leads (team_id, linkedin) where linkedin is not null;
    create unique index leads_team_work_email_key on leads (team_id, work_email) where work_email is not null;
    create unique index leads_team_personal_email_key on leads (team_id, personal_email) where personal_email is not null;
    create unique index leads_team_name_company_key on leads (team_id, lower(name), lower(company_name))
      where name is not null and company_name is not null and ln_member_id is null and ln_id is null
        and sn_id is null and linkedin is null and work_email is null and personal_email is null;
    create index leads_team_name_company_idx on leads (team_id, lower(name), lower(company_name));
    create index leads_team_company_name_idx on leads (team_id, lower(company_name));
    create index leads_team_created_idx on leads (team_id, created_at, uuid);
    create index leads_team_updated_idx on leads (team_id, updated_at, uuid);
    create index leads_team_list_idx on leads (team_id, list_uuid, created_at, uuid);
    create index leads_team_stage_idx on leads (team_id, pipeline_stage_uuid, created_at, uuid);
    create index leads_team_company_idx on leads (team_id, company_uuid) where company_uuid is not null;
    create index leads_team_blacklisted_idx on leads (team_id) where is_blacklisted;
    create index leads_team_tags_idx on leads using gin (team_id, tags);
    create index leads_team_custom_fields_idx on leads using gin (team_id, custom_fields jsonb_path_ops);
    create index leads_team_search_idx on leads using gin (team_id, search_text gin_trgm_ops);

    create table notes (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      object text not null check (object in ('lead', 'company')),
      object_uuid uuid not null,
      note text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );
    create index notes_team_object_idx on notes (team_id, object_uuid, created_at);
    create index notes_team_created_idx on notes (team_id, created_at, uuid);

    -- Blacklist entries hold normalised values (lower case; LinkedIn handles and domains parsed the
    -- same way as on contacts and companies). A record matches an entry when every field the entry
    -- sets matches.
    create table leads_blacklist (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text,
      company_name text,
      linkedin text,
      ln_id text,
      email text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      check (coalesce(name, company_name, linkedin, ln_id, email) is not null)
    );
    create index leads_blacklist_team_created_idx on leads_blacklist (team_id, created_at, uuid);

    create table companies_blacklist (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      name text,
      domain text,
      linkedin text,
      ln_id bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (team_id, uuid),
      check (coalesce(name, domain, linkedin, ln_id::text) is not null)
    );
    create index companies_blacklist_team_created_idx on companies_blacklist (team_id, created_at, uuid);

    -- Deleted contacts whose dependent records (notes, enrollments, messages...) are still being
    -- removed by a background job; the contact itself is gone from reads at once.
    create table lead_tombstones (
      team_id bigint not null,
      uuid uuid not null,
      deleted_at timestamptz not null default now(),
      primary key (team_id, uuid)
    );

    -- Mass actions too large to run inside one request, and other long bulk operations.
    create table bulk_operations (
      team_id bigint not null references teams (id) on delete cascade,
      uuid uuid not null,
      user_id bigint,
      type text not null,
      status text not null default 'queued' check (status in ('queued', 'processing', 'done', 'failed')),
      filter jsonb,
      payload jsonb,
      affected bigint,
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz,
      primary key (team_id, uuid)
    );
  `.execute(db);
}
