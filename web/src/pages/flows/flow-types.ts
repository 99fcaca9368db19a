// The flows API's shapes as the app uses them, taken from the SDK (the OpenAPI document) - never
// re-declared by hand.
import type { paths } from '@leadflow/sdk';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type Flow = Json<paths['/flows/api/flows']['get']['responses']['200']>['data'][number];
export type FlowDetail = Json<paths['/flows/api/flows/{flowUuid}']['get']['responses']['200']>;
export type FlowMetrics = Json<paths['/flows/api/flows/metrics']['post']['responses']['200']>[string];
export type Workspace = Json<paths['/flows/api/flow-workspaces']['get']['responses']['200']>['data'][number];
export type NodeTypeInfo = Json<
  paths['/flows/api/flow-versions/node-types']['get']['responses']['200']
>[number];
export type SaveVersionBody = NonNullable<
  paths['/flows/api/flows/{flowUuid}/flow-versions']['post']['requestBody']
>['content']['application/json'];
export type TreeNode = SaveVersionBody['nodes'][number];
export type ContactSource = SaveVersionBody['contact_sources'][number];
export type Schedule = FlowDetail['schedule'];
export type FlowStatus = Flow['status'];
export type PreviewBody = NonNullable<
  paths['/flows/api/flows/{flowUuid}/preview']['post']['requestBody']
>['content']['application/json'];
export type PreviewResult = Json<paths['/flows/api/flows/{flowUuid}/preview']['post']['responses']['200']>;
