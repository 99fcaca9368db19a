import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { COMPANY_FILTER_KEYS } from './companies.filter.js';
import {
  CompaniesQuery,
  CompaniesSearchBody,
  Company,
  CompanyContactsResponse,
  CompanyPage,
  CompanyUuidsBody,
  CreateCompaniesBody,
  CreateCompaniesResponse,
  LookupBody,
  LookupResponse,
  MassActionBody,
  MassActionResponse,
  UpdateCompanyBody,
} from './companies.schemas.js';
import type { CompaniesService } from './companies.service.js';

export const companiesRoutes: FastifyPluginAsyncTypebox<{ companies: CompaniesService }> = async (
  app,
  { companies },
) => {
  const tags = ['Companies'];

  app.get(
    '/leads/api/companies',
    {
      config: { filterFields: COMPANY_FILTER_KEYS },
      schema: {
        tags,
        operationId: 'listCompanies',
        summary: 'List companies',
        description: 'Paginated; filter with filter[field]=value (see the filter parameter for the keys).',
        querystring: CompaniesQuery,
        response: { 200: CompanyPage },
      },
    },
    async (request) => companies.listCompanies(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/companies/list',
    {
      schema: {
        tags,
        operationId: 'searchCompanies',
        summary: 'List companies with the filter in the body',
        body: CompaniesSearchBody,
        response: { 200: CompanyPage },
      },
    },
    async (request) => companies.listCompanies(authOf(request).teamId, request.body),
  );

  app.post(
    '/leads/api/companies',
    {
      schema: {
        tags,
        operationId: 'createCompanies',
        summary: 'Create companies (up to 1000), deduplicated against the stored ones',
        description:
          'Each company is matched against your team\u2019s companies by LinkedIn id, then LinkedIn slug, then ' +
          'website domain (taken from `domain` or `website`), then name (case-insensitive; only when no LinkedIn id, ' +
          'slug or domain of the two differs). A match is updated instead of duplicated: given values replace ' +
          'stored ones, except ln_id, linkedin and domain, which are only filled in where the company has none; ' +
          'tags and list_uuids are added; custom fields given are set (null clears); the pipeline stage changes ' +
          'only when one is given. Entries of the request that match each other are merged the same way. New ' +
          'companies start on the first company pipeline stage. Existing contacts whose company name or work ' +
          'e-mail domain matches are linked. Answers 200 with one company per input element, in order.',
        body: CreateCompaniesBody,
        response: {
          200: CreateCompaniesResponse,
          409: errorResponse(409, 'companies were changed concurrently, or identifiers collide; retry'),
        },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return companies.createCompanies({ teamId, userId }, request.body);
    },
  );

  app.post(
    '/leads/api/companies/lookup',
    {
      schema: {
        tags,
        operationId: 'lookupCompanies',
        summary: 'Find companies by LinkedIn id, LinkedIn URL, website or name',
        description:
          'Body `lookups` (or its alias `companies`): criteria with at least one of ln_id, linkedin, website, ' +
          'domain, name. Answers, per criterion and in order, the company found or null.',
        body: LookupBody,
        response: { 200: LookupResponse },
      },
    },
    async (request) => companies.lookupCompanies(authOf(request).teamId, request.body),
  );

  app.post(
    '/leads/api/companies/leads',
    {
      schema: {
        tags,
        operationId: 'listCompanyContacts',
        summary: 'Contacts of companies',
        body: CompanyUuidsBody,
        response: { 200: CompanyContactsResponse },
      },
    },
    async (request) => companies.contactsOfCompanies(authOf(request).teamId, request.body.uuids),
  );

  app.put(
    '/leads/api/companies/mass-action',
    {
      schema: {
        tags,
        operationId: 'companyMassAction',
        summary: 'Apply an action to many companies',
        description:
          'Types and payloads: company_add_tags and company_remove_tags {tag_uuid | tag_uuids}, ' +
          'company_replace_tags {tag_uuids}, company_change_pipeline_stage {pipeline_stage_uuid}, company_delete. ' +
          'filter: {"ids": [...]}, {"all": true} or company filter keys, with optional "excludeIds". ' +
          'Blacklisted companies are skipped. Up to the synchronous limit (LEADFLOW_MASS_ACTION_SYNC_LIMIT, ' +
          'default 50,000 companies) it runs in the request: 200 {"affected": N, "operation": null}. Above it ' +
          'a bulk operation is queued: 202 {"affected": null, "operation": {...}}; poll ' +
          'GET /leads/api/bulk-operations/{uuid}.',
        body: MassActionBody,
        response: { 200: MassActionResponse, 202: MassActionResponse },
      },
    },
    async (request, reply) => {
      const result = await companies.massAction(authOf(request), request.body);
      return reply.code(result.queued ? 202 : 200).send(result.body);
    },
  );

  app.get(
    '/leads/api/companies/:uuid',
    {
      schema: {
        tags,
        operationId: 'getCompany',
        summary: 'Get a company',
        params: UuidParams,
        response: { 200: Company },
      },
    },
    async (request) => companies.getCompany(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/companies/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateCompany',
        summary: 'Update a company (only the fields given)',
        description:
          'null clears a field. A new website also sets the domain unless domain is given. tags and lists ' +
          'replace the company\u2019s. Custom field values are set with POST /leads/api/custom-field-values. ' +
          'Taking a LinkedIn id, slug or domain another company has answers 409.',
        params: UuidParams,
        body: UpdateCompanyBody,
        response: { 200: Company },
      },
    },
    async (request) => companies.updateCompany(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/leads/api/companies/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteCompany',
        summary: 'Delete a company permanently',
        description: 'Its contacts stay, without a company; its notes are deleted.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await companies.deleteCompany(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
