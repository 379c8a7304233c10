// A scripted model for the booted-dsh tests: a real HTTP server on 127.0.0.1 that speaks the
// OpenAI-compatible chat completions API dsh's DeepSeek adapter calls (`POST <base>/chat/completions`,
// streamed as server-sent events ending in `[DONE]`), answers every turn with a fixed text, and
// records each request body: the system prompt and tool list are what the model receives.

/** One chat message as dsh sends it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

/** What the scripted model answers: a text, or one call of a tool. */
export type Reply = { text: string } | {
  call: { name: string; arguments: Record<string, unknown> };
};

/** One recorded chat completions request. */
export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string } }>;
  stream?: boolean;
}

/** The names of the tools offered in a request. */
export function toolNames(request: ChatRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function?.name).sort();
}

function chunk(delta: Record<string, unknown>, finish: string | null, usage?: unknown): string {
  const body = {
    id: "scripted-1",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: "deepseek-chat",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(usage === undefined ? {} : { usage }),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };

/** A streamed answer: the chunks, then `[DONE]`. */
function sse(chunks: string): Response {
  return new Response(chunks + "data: [DONE]\n\n", {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** The scripted model server; `close()` stops it. */
export class ScriptedModel {
  readonly requests: ChatRequest[] = [];
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #waiters: Array<() => void> = [];

  /** `script` picks the answer to each request (default: the text "ok"). */
  constructor(readonly script: (request: ChatRequest) => Reply = () => ({ text: "ok" })) {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** The base URL to give dsh (`DEEPSEEK_BASE_URL`). */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Resolves once `count` chat requests have arrived. */
  async received(count: number): Promise<ChatRequest> {
    while (this.requests.length < count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    return this.requests[count - 1];
  }

  async #handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path.endsWith("/models")) {
      return Response.json({ object: "list", data: [{ id: "deepseek-chat", object: "model" }] });
    }
    if (request.method !== "POST" || !path.endsWith("/chat/completions")) {
      return new Response("not found", { status: 404 });
    }
    const body = await request.json() as ChatRequest;
    this.requests.push(body);
    for (const wake of this.#waiters.splice(0)) wake();
    const reply = this.script(body);
    if ("call" in reply) {
      const call = {
        index: 0,
        id: `call-${this.requests.length}`,
        type: "function",
        function: { name: reply.call.name, arguments: JSON.stringify(reply.call.arguments) },
      };
      return sse(
        chunk({ role: "assistant", tool_calls: [call] }, null) +
          chunk({}, "tool_calls", USAGE),
      );
    }
    return sse(chunk({ role: "assistant", content: reply.text }, null) + chunk({}, "stop", USAGE));
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }
}
