import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { UuidParams } from '../../http/schemas.js';
import { dataSourceFilterFields } from './data-sources.repository.js';
import {
  CreateDataSourceBody,
  DataSource,
  DataSourceMetrics,
  DataSourceMetricsBody,
  DataSourcePage,
  DataSourcesQuery,
  UpdateDataSourceBody,
} from './data-sources.schemas.js';
import type { DataSourcesService } from './data-sources.service.js';

export const dataSourcesRoutes: FastifyPluginAsyncTypebox<{ dataSources: DataSourcesService }> = async (
  app,
  { dataSources },
) => {
  const tags = ['Data sources'];

  app.get(
    '/leads/api/data-sources',
    {
      config: { filterFields: Object.keys(dataSourceFilterFields) },
      schema: {
        tags,
        operationId: 'listDataSources',
        summary: 'List data sources',
        querystring: DataSourcesQuery,
        response: { 200: DataSourcePage },
      },
    },
    async (request) => dataSources.listDataSources(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/data-sources',
    {
      schema: {
        tags,
        operationId: 'createDataSource',
        summary: 'Create a data source',
        description:
          'A LinkedIn search (every type but csv_leads) starts at once unless status is not_started: the ' +
          'sender\u2019s seat pages through it at the account\u2019s read pace and saves each person or company ' +
          'into the list, deduplicated and blacklist-checked like a CSV import, with the tags.',
        body: CreateDataSourceBody,
        response: { 201: DataSource },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      return reply.code(201).send(await dataSources.createDataSource(auth.teamId, auth.userId, request.body));
    },
  );

  app.put(
    '/leads/api/data-sources/metrics',
    {
      schema: {
        tags,
        operationId: 'dataSourceMetrics',
        summary: 'Record counters per data source',
        body: DataSourceMetricsBody,
        response: { 200: DataSourceMetrics },
      },
    },
    async (request) => dataSources.dataSourceMetrics(authOf(request).teamId, request.body.uuids),
  );

  app.get(
    '/leads/api/data-sources/:uuid',
    {
      schema: {
        tags,
        operationId: 'getDataSource',
        summary: 'Get a data source',
        params: UuidParams,
        response: { 200: DataSource },
      },
    },
    async (request) => dataSources.getDataSource(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/data-sources/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateDataSource',
        summary: 'Update, pause or resume a data source',
        body: UpdateDataSourceBody,
        params: UuidParams,
        response: { 200: DataSource },
      },
    },
    async (request) =>
      dataSources.updateDataSource(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/leads/api/data-sources/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteDataSource',
        summary: 'Delete a data source',
        description: 'Answers 200 with the deleted record (as the hosted API). Records it saved stay.',
        params: UuidParams,
        response: { 200: DataSource },
      },
    },
    async (request) => dataSources.deleteDataSource(authOf(request).teamId, request.params.uuid),
  );
};
