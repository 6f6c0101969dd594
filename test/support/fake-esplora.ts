import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A Bitcoin chain seen through an Esplora REST API, on loopback: the outside world that live
 * Bitcoin payments come from. No Bitcoin node installs here, so the answers are written in the
 * shapes of the Esplora API documentation (https://github.com/Blockstream/esplora/blob/master/API.md,
 * "Transaction format" and the `/address/:address/txs` and `/txs/chain/:last_seen_txid` paging):
 * mempool transactions first, then confirmed ones newest first, 25 to a page.
 */
export type FakeTx = {
  txid: string;
  outputs: { address: string; value: number }[];
  /** Null: in the mempool. */
  blockHeight: number | null;
};

export type Fault = 'status-500' | 'garbage' | 'wrong-shape' | 'huge' | 'huge-chunked' | 'hang' | null;

export type FakeEsplora = {
  url: string;
  tip: number;
  txs: FakeTx[];
  /** Every request's path, in order. */
  requests: string[];
  /** The next answers' fault, until set back to null. */
  fault: Fault;
  /** A transaction paying `sats` to `address`, in the mempool (or confirmed at `blockHeight`). */
  pay(address: string, sats: number, blockHeight?: number | null): string;
  /** Mines `blocks` blocks; the first takes every mempool transaction. */
  mine(blocks?: number): void;
  /** A reorg back to `height`: later blocks are replaced, their transactions sent back to the mempool or dropped. */
  reorg(height: number, fate: 'mempool' | 'dropped'): void;
  close(): Promise<void>;
};

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

export async function startFakeEsplora(): Promise<FakeEsplora> {
  let counter = 0;
  let fork = 0;
  const sockets = new Set<Socket>();
  const blockHash = (height: number) => hex(`block ${height} of fork ${fork}`);
  const toJson = (tx: FakeTx) => ({
    txid: tx.txid,
    version: 2,
    locktime: 0,
    vin: [],
    vout: tx.outputs.map((o) => ({
      scriptpubkey: '0014',
      scriptpubkey_asm: 'OP_0 OP_PUSHBYTES_20',
      scriptpubkey_type: 'v0_p2wpkh',
      scriptpubkey_address: o.address,
      value: o.value,
    })),
    size: 222,
    weight: 561,
    fee: 1410,
    status:
      tx.blockHeight === null
        ? { confirmed: false }
        : {
            confirmed: true,
            block_height: tx.blockHeight,
            block_hash: blockHash(tx.blockHeight),
            block_time: 1_700_000_000 + tx.blockHeight * 600,
          },
  });

  const fake: FakeEsplora = {
    url: '',
    tip: 800_000,
    txs: [],
    requests: [],
    fault: null,
    pay(address, sats, blockHeight = null) {
      const txid = hex(`tx ${++counter}`);
      // A change output to someone else, as real payments have.
      fake.txs.push({
        txid,
        outputs: [
          { address: 'bc1qchange', value: 12_345 },
          { address, value: sats },
        ],
        blockHeight,
      });
      return txid;
    },
    mine(blocks = 1) {
      for (const tx of fake.txs) {
        if (tx.blockHeight === null) {
          tx.blockHeight = fake.tip + 1;
        }
      }
      fake.tip += blocks;
    },
    reorg(height, fate) {
      fork++;
      fake.txs = fake.txs.flatMap((tx) => {
        if (tx.blockHeight === null || tx.blockHeight <= height) {
          return [tx];
        }
        return fate === 'mempool' ? [{ ...tx, blockHeight: null }] : [];
      });
      // The new branch is as long as the old one (a reorg never shortens the best chain).
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };

  const addressTxs = (address: string): FakeTx[] => {
    const paying = fake.txs.filter((tx) => tx.outputs.some((o) => o.address === address));
    const mempool = paying.filter((tx) => tx.blockHeight === null).reverse();
    const confirmed = paying
      .filter((tx) => tx.blockHeight !== null)
      .sort((a, b) => (b.blockHeight as number) - (a.blockHeight as number) || b.txid.localeCompare(a.txid));
    return [...mempool, ...confirmed];
  };

  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    fake.requests.push(path);
    const send = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    switch (fake.fault) {
      case 'status-500':
        return send(500, 'Internal Server Error', 'text/plain');
      case 'garbage':
        return send(200, '<html>not json', 'text/html');
      case 'wrong-shape':
        return send(200, path.endsWith('/height') ? 'eight hundred' : JSON.stringify([{ txid: 42 }]));
      case 'huge':
        return send(200, `[${' '.repeat(5 * 1024 * 1024)}]`);
      case 'huge-chunked': {
        // No content-length: the client must stop reading by itself.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = ' '.repeat(64 * 1024);
        let sent = 0;
        const more = () => {
          while (sent < 200 && res.write(chunk)) {
            sent++;
          }
          if (sent < 200) {
            res.once('drain', more);
          } else {
            res.end(']');
          }
        };
        res.write('[');
        more();
        res.on('error', () => undefined);
        return;
      }
      case 'hang':
        return;
      default:
        break;
    }
    if (path === '/blocks/tip/height') {
      return send(200, String(fake.tip), 'text/plain');
    }
    const match = /^\/address\/([^/]+)\/txs(?:\/chain\/([0-9a-f]{64}))?$/.exec(path);
    if (!match) {
      return send(404, 'Not Found', 'text/plain');
    }
    const all = addressTxs(decodeURIComponent(match[1] as string));
    const confirmed = all.filter((tx) => tx.blockHeight !== null);
    if (match[2] === undefined) {
      const mempool = all.filter((tx) => tx.blockHeight === null).slice(0, 50);
      return send(200, JSON.stringify([...mempool, ...confirmed.slice(0, 25)].map(toJson)));
    }
    const after = confirmed.findIndex((tx) => tx.txid === match[2]);
    return send(200, JSON.stringify(after === -1 ? [] : confirmed.slice(after + 1, after + 26).map(toJson)));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
