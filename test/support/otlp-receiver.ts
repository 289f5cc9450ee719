/**
 * A stand-in OpenTelemetry collector: accepts OTLP/HTTP JSON trace exports on loopback and keeps
 * the spans, flattened, for assertions.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  /** The span's events, attributes flattened. */
  events: { name: string; attributes: Record<string, unknown> }[];
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

export async function startOtlpReceiver(): Promise<{
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.url === '/v1/traces') {
      const payload = JSON.parse(body) as {
        resourceSpans: {
          scopeSpans: {
            spans: (Omit<ReceivedSpan, 'attributes' | 'events'> & {
              attributes?: OtlpAttribute[];
              events?: { name: string; attributes?: OtlpAttribute[] }[];
            })[];
          }[];
        }[];
      };
      for (const rs of payload.resourceSpans) {
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            const flat = (list: OtlpAttribute[] = []) =>
              Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));
            const events = (s.events ?? []).map((e) => ({ name: e.name, attributes: flat(e.attributes) }));
            spans.push({ ...s, parentSpanId: s.parentSpanId || undefined, attributes: flat(s.attributes), events });
          }
        }
      }
    }
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
