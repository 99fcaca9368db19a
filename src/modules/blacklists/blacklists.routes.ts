import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { companiesBlacklistFilterFields, leadsBlacklistFilterFields } from './blacklists.repository.js';
import {
  CompaniesBlacklistEntry,
  CompaniesBlacklistPage,
  CompaniesBlacklistQuery,
  CreateCompaniesBlacklistBody,
  CreateLeadsBlacklistBody,
  LeadsBlacklistEntry,
  LeadsBlacklistPage,
  LeadsBlacklistQuery,
} from './blacklists.schemas.js';
import type { BlacklistsService } from './blacklists.service.js';

// Each resource answers on the spec's path and on the alias some clients use
// (/leads/api/blacklist/leads, /leads/api/blacklist/companies); aliases get their own operation ids.
const LEAD_PATHS = [
  { base: '/leads/api/leads-blacklist', suffix: '' },
  { base: '/leads/api/blacklist/leads', suffix: 'Alias' },
];
const COMPANY_PATHS = [
  { base: '/leads/api/companies-blacklist', suffix: '' },
  { base: '/leads/api/blacklist/companies', suffix: 'Alias' },
];

export const blacklistsRoutes: FastifyPluginAsyncTypebox<{ blacklists: BlacklistsService }> = async (
  app,
  { blacklists },
) => {
  const tags = ['Blacklists'];

  for (const { base, suffix } of LEAD_PATHS) {
    const alias = suffix ? ` (alias of ${LEAD_PATHS[0]!.base})` : '';
    app.get(
      base,
      {
        config: { filterFields: Object.keys(leadsBlacklistFilterFields) },
        schema: {
          tags,
          operationId: `listLeadsBlacklist${suffix}`,
          summary: `List contact blacklist entries${alias}`,
          querystring: LeadsBlacklistQuery,
          response: { 200: LeadsBlacklistPage },
        },
      },
      async (request) => blacklists.listLeadEntries(authOf(request).teamId, request.query),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          operationId: `createLeadsBlacklistEntry${suffix}`,
          summary: `Blacklist contacts${alias}`,
          description:
            'Adds an entry and flags the contacts it matches (is_blacklisted = true) in the same transaction. ' +
            'Values are stored normalised: LinkedIn URLs become the nickname (or the ACoA… id in ln_id), ' +
            'e-mails and names lower case. An identical entry is a 409.',
          body: CreateLeadsBlacklistBody,
          response: { 201: LeadsBlacklistEntry },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await blacklists.createLeadEntry(authOf(request), request.body)),
    );

    app.get(
      `${base}/:uuid`,
      {
        schema: {
          tags,
          operationId: `getLeadsBlacklistEntry${suffix}`,
          summary: `Get a contact blacklist entry${alias}`,
          params: UuidParams,
          response: { 200: LeadsBlacklistEntry },
        },
      },
      async (request) => blacklists.getLeadEntry(authOf(request).teamId, request.params.uuid),
    );

    app.delete(
      `${base}/:uuid`,
      {
        schema: {
          tags,
          operationId: `deleteLeadsBlacklistEntry${suffix}`,
          summary: `Remove a contact blacklist entry${alias}`,
          description: 'Contacts the entry matched are un-flagged unless another entry still matches them.',
          params: UuidParams,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        await blacklists.deleteLeadEntry(authOf(request).teamId, request.params.uuid);
        return reply.code(204).send(null);
      },
    );
  }

  for (const { base, suffix } of COMPANY_PATHS) {
    const alias = suffix ? ` (alias of ${COMPANY_PATHS[0]!.base})` : '';
    app.get(
      base,
      {
        config: { filterFields: Object.keys(companiesBlacklistFilterFields) },
        schema: {
          tags,
          operationId: `listCompaniesBlacklist${suffix}`,
          summary: `List company blacklist entries${alias}`,
          querystring: CompaniesBlacklistQuery,
          response: { 200: CompaniesBlacklistPage },
        },
      },
      async (request) => blacklists.listCompanyEntries(authOf(request).teamId, request.query),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          operationId: `createCompaniesBlacklistEntry${suffix}`,
          summary: `Blacklist companies${alias}`,
          description:
            'Adds an entry and flags the companies it matches (is_blacklisted = true) in the same transaction. ' +
            'LinkedIn URLs become the page slug (or the numeric ln_id), domains the bare host, names lower case. ' +
            'An identical entry is a 409.',
          body: CreateCompaniesBlacklistBody,
          response: { 201: CompaniesBlacklistEntry },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await blacklists.createCompanyEntry(authOf(request), request.body)),
    );

    app.get(
      `${base}/:uuid`,
      {
        schema: {
          tags,
          operationId: `getCompaniesBlacklistEntry${suffix}`,
          summary: `Get a company blacklist entry${alias}`,
          params: UuidParams,
          response: { 200: CompaniesBlacklistEntry },
        },
      },
      async (request) => blacklists.getCompanyEntry(authOf(request).teamId, request.params.uuid),
    );

    app.delete(
      `${base}/:uuid`,
      {
        schema: {
          tags,
          operationId: `deleteCompaniesBlacklistEntry${suffix}`,
          summary: `Remove a company blacklist entry${alias}`,
          description: 'Companies the entry matched are un-flagged unless another entry still matches them.',
          params: UuidParams,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        await blacklists.deleteCompanyEntry(authOf(request).teamId, request.params.uuid);
        return reply.code(204).send(null);
      },
    );
  }
};
