import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RefusalReason } from '../domain/dashboard/access-refusals.service.ts';
import { REFUSAL_REASONS } from '../domain/dashboard/access-refusals.service.ts';
import type { ChainSourceStatus } from '../domain/payment-methods/payment-provider.ts';

type Series = { requests: Counter.Internal; duration: Histogram.Internal<string> };

/** How many (method, route, status) series are remembered; routes are patterns, so few exist. */
const MAX_SERIES = 2_000;

export type HttpMetrics = {
  registry: Registry;
  /** Counts one answered request; called from the app's single onResponse hook. */
  observe(req: FastifyRequest, reply: FastifyReply): void;
  /** Counts one refused dashboard attempt, every one (the audit log writes only some). */
  countRefusal(reason: RefusalReason): void;
};

/**
 * Prometheus metrics: requests by route and status, and their latency (routes are patterns, never
 * raw paths); and live mode's chain sources, read when scraped.
 */
export function createHttpMetrics(chains?: () => Record<string, ChainSourceStatus>): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (chains) {
    new Gauge({
      name: 'cobro_chain_tip_height',
      help: 'Highest block its chain source reported, by network',
      labelNames: ['network'] as const,
      registers: [registry],
      collect() {
        for (const [network, status] of Object.entries(chains())) {
          if (status.tipHeight !== null) {
            this.set({ network }, status.tipHeight);
          }
        }
      },
    });
    new Gauge({
      name: 'cobro_chain_scan_lag_blocks',
      help: 'Blocks between the tip and where the scan of its transfers stands, by network (block-scanning sources)',
      labelNames: ['network'] as const,
      registers: [registry],
      collect() {
        for (const [network, status] of Object.entries(chains())) {
          if (status.lagBlocks !== null) {
            this.set({ network }, status.lagBlocks);
          }
        }
      },
    });
    new Gauge({
      name: 'cobro_chain_token_enabled',
      help: "1 when a token's payments are counted, 0 when its chain source disabled it (its contract failed the check), by network and currency; absent until checked",
      labelNames: ['network', 'currency'] as const,
      registers: [registry],
      collect() {
        for (const [network, status] of Object.entries(chains())) {
          for (const [currency, token] of Object.entries(status.tokens ?? {})) {
            if (token.status !== 'UNVERIFIED') {
              this.set({ network, currency }, token.status === 'ENABLED' ? 1 : 0);
            }
          }
        }
      },
    });
    new Counter({
      name: 'cobro_chain_rpc_errors_total',
      help: 'Calls to a chain source that failed (no answer, error status, oversized or malformed answer, tip going backwards), by network',
      labelNames: ['network'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [network, status] of Object.entries(chains())) {
          this.inc({ network }, status.errors);
        }
      },
    });
  }
  const requests = new Counter({
    name: 'cobro_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cobro_http_request_duration_seconds',
    help: 'Time from request received to response sent',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'cobro_dashboard_refusals_total',
    help: "Dashboard attempts refused for the role, the CSRF check, another merchant's object (tenancy) or the other mode's, by reason",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of REFUSAL_REASONS) {
    refusals.inc({ reason }, 0);
  }
  // prom-client hashes the label set on every call; the series of a route and status are
  // looked up once and kept.
  const series = new Map<string, Series>();
  return {
    registry,
    observe(req, reply) {
      const route = req.routeOptions.url ?? 'unmatched';
      const status = String(reply.statusCode);
      const key = `${req.method} ${status} ${route}`;
      let s = series.get(key);
      if (!s) {
        const labels = { method: req.method, route, status_code: status };
        s = { requests: requests.labels(labels), duration: duration.labels(labels) };
        if (series.size < MAX_SERIES) {
          series.set(key, s);
        }
      }
      s.requests.inc();
      s.duration.observe(reply.elapsedTime / 1000);
    },
    countRefusal(reason) {
      refusals.inc({ reason });
    },
  };
}
