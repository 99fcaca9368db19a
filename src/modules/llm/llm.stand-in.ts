// A local stand-in for an OpenAI-compatible LLM endpoint, for tests and benchmarks: a real HTTP server on
// loopback that speaks the chat-completions protocol (POST /v1/chat/completions), whose answers, delays
// and failures the caller controls. It records every request and the most calls it had in flight at once,
// so tests can check what was sent and that the concurrency limit held.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from './llm-client.js';

export type StandInRequest = {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  authorization: string | undefined;
};

/** What to answer: text (after `delayMs`), or an HTTP error status. */
export type StandInReply = { content?: string; status?: number; delayMs?: number };

export type LlmStandIn = {
  /** Base URL for LEADFLOW_LLM_BASE_URL (ends in /v1). */
  url: string;
  requests: StandInRequest[];
  /** Most chat calls in flight at the same time since the last reset. */
  maxInFlight: number;
  /** Replaces how requests are answered. */
  answer(handler: (request: StandInRequest) => StandInReply | Promise<StandInReply>): void;
  reset(): void;
  close(): Promise<void>;
};

/** The default answer: a short text that quotes the start of the last user message. */
export const echoReply = (request: StandInRequest): StandInReply => {
  const last = [...request.messages].reverse().find((message) => message.role === 'user');
  return { content: `Generated: ${(last?.content ?? '').slice(0, 60)}` };
};

export async function startLlmStandIn(): Promise<LlmStandIn> {
  let handler: (request: StandInRequest) => StandInReply | Promise<StandInReply> = echoReply;
  let inFlight = 0;
  const sockets = new Set<import('node:net').Socket>();

  const standIn: LlmStandIn = {
    url: '',
    requests: [],
    maxInFlight: 0,
    answer(next) {
      handler = next;
    },
    reset() {
      standIn.requests.length = 0;
      standIn.maxInFlight = 0;
      handler = echoReply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => send(res, 500, { error: { message: String(error) } }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Omit<StandInRequest, 'authorization'>;
    const request: StandInRequest = { ...body, authorization: req.headers.authorization };
    standIn.requests.push(request);
    // In flight until the response is sent or the client gives up (a timed-out call stops counting).
    inFlight += 1;
    standIn.maxInFlight = Math.max(standIn.maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    const reply = await handler(request);
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.status && reply.status >= 400) {
      return send(res, reply.status, { error: { message: 'stand-in failure', type: 'server_error' } });
    }
    send(res, 200, {
      id: `chatcmpl-${standIn.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' },
      ],
      // Words stand in for tokens, so tests can tell the counts apart.
      usage: usage(body.messages, reply.content ?? ''),
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return standIn;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function usage(messages: ChatMessage[], answer: string) {
  const prompt = messages.reduce((sum, message) => sum + words(message.content), 0);
  const completion = words(answer);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function send(res: ServerResponse, status: number, body: unknown) {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
