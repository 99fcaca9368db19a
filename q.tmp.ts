import { loadConfig } from './src/config.js';
import { composeMessage } from './src/modules/ai-templates/ai-message.js';
import { startLlmStandIn } from './src/modules/llm/llm.stand-in.js';
import { createLlmClient } from './src/modules/llm/openai-client.js';
import { buildScope } from './src/modules/templates/render/scope.js';
const s = await startLlmStandIn();
s.answer(() => ({ content: 'Hi! Short AI opener.', delayMs: 50 }));
const llm = createLlmClient(loadConfig({ LEADFLOW_LLM_BASE_URL: s.url, LEADFLOW_LLM_CONCURRENCY: '8' }).llm);
const scope = buildScope({ contact: { first_name: 'Jane', position: 'CTO', company_name: 'Acme' }, company: null, customFields: {}, companyCustomFields: {}, sender: { first_name: 'M' } });
const template = { type: 'message' as const, subject: null, body: 'Hi {{first_name}} '.repeat(20), fallback_body: null, prompt: 'Write for {{first_name}}', llm_config: null, enable_validation: false, validation_prompt: null, validation_llm_config: null, enable_fallback: true, settings: null };
await Promise.all(Array.from({ length: 16 }, () => llm.complete({ messages: [] })));
for (let round = 0; round < 2; round++) {
let t = performance.now();
await Promise.all(Array.from({ length: 400 }, () => llm.complete({ messages: [{ role: 'user', content: 'hi' }] })));
console.log('bare', (400 / ((performance.now() - t) / 1000)).toFixed(0));
t = performance.now();
await Promise.all(Array.from({ length: 400 }, (_, i) => composeMessage(template, scope, { llm, seed: 's' + i })));
console.log('compose', (400 / ((performance.now() - t) / 1000)).toFixed(0));
t = performance.now();
await Promise.all(Array.from({ length: 400 }, () => llm.complete({ messages: [{ role: 'system', content: 'x'.repeat(600) }, { role: 'user', content: 'hi' }] })));
console.log('bare big', (400 / ((performance.now() - t) / 1000)).toFixed(0));
}
await s.close();
