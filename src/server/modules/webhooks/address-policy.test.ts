import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, parseIPv6, TargetRefusedError, vetTarget } from './address-policy.js';
import { sendWebhook } from './sender.js';

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.10', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
  ])('refuses IPv4 %s (%s)', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reason);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.169.0.1',
    '223.255.255.255',
  ])('allows public IPv4 %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:100.64.0.1', 'IPv4-mapped shared address space'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2002:c0a8:0101::1', '6to4 private'],
    ['fd00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'IETF'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'IETF'],
    ['3fff::1', 'documentation'],
    ['4000::1', 'not global unicast'],
    ['::2', 'IPv4-compatible'],
  ])('refuses IPv6 %s (%s)', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reason);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
    '2001:200::1',
  ])('allows public IPv6 %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each(['localhost', '127.1', '0x7f.0.0.1', '2130706433', '', '1.2.3.4.5', ':::1'])('refuses %j, which is not an IP address', (text) => {
    expect(classifyAddress(text).allowed).toBe(false);
  });
});

describe('parseIPv6', () => {
  it('expands compressed forms and dotted tails to eight groups', () => {
    expect(parseIPv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('fe80::1')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('not-an-address')).toBeNull();
  });
});

describe('vetTarget', () => {
  const refused = async (url: string, allowPrivate = false) => {
    const err = await vetTarget(url, { allowPrivate }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetRefusedError);
    return (err as Error).message;
  };

  it('refuses loopback, link-local and private hosts when private targets are not allowed', async () => {
    expect(await refused('https://127.0.0.1/hook')).toMatch(/loopback/);
    expect(await refused('https://[::1]/hook')).toMatch(/loopback/);
    expect(await refused('https://[::ffff:127.0.0.1]/hook')).toMatch(/loopback/);
    expect(await refused('https://169.254.169.254/latest/meta-data/')).toMatch(/link-local/);
    expect(await refused('https://10.0.0.5/hook')).toMatch(/private/);
    expect(await refused('https://[fd00::1]/hook')).toMatch(/unique-local/);
    // A name is judged by what it resolves to: the system resolver says localhost is loopback.
    expect(await refused('https://localhost/hook')).toMatch(/loopback/);
  });

  it('refuses a host when any of its addresses is private (the attacker picks which one is used)', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const err = await vetTarget('https://mixed.example/hook', { allowPrivate: false, resolve }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/private address \(10\.0\.0\.1\)/);
  });

  it('answers the vetted address to connect to', async () => {
    const resolve = async () => [{ address: '2606:4700:4700::1111', family: 6 }];
    const target = await vetTarget('https://public.example/hook', { allowPrivate: false, resolve });
    expect(target).toMatchObject({ address: '2606:4700:4700::1111', family: 6 });
  });

  it('needs https unless private targets are allowed, and never takes credentials', async () => {
    expect(await refused('http://93.184.216.34/hook')).toMatch(/https/);
    expect(await refused('ftp://93.184.216.34/hook', true)).toMatch(/https/);
    expect(await refused('https://user:pw@93.184.216.34/hook')).toMatch(/credentials/);
    await expect(vetTarget('http://127.0.0.1:9/hook', { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1' });
  });

  it('says when a host cannot be found', async () => {
    expect(await refused('https://no-such-host.invalid/hook')).toMatch(/could not be (found|resolved)/);
  });
});

describe('sendWebhook', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/elsewhere' }).end();
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const message = (path: string, host = '127.0.0.1') => ({ url: `http://${host}:${port}${path}`, headers: {}, body: '{}' });

  it('never connects to a loopback receiver when private targets are not allowed', async () => {
    const before = hits;
    const result = await sendWebhook({ ...message('/hook'), url: `http://localhost:${port}/hook` }, { allowPrivate: false });
    expect(result.kind).toBe('refused');
    expect(hits).toBe(before);
  });

  it('checks the name again at delivery: a host that passed when saved but now resolves to loopback is refused (DNS rebinding)', async () => {
    const before = hits;
    let lookups = 0;
    // The first answer (at save) is public; every later one (at delivery) points at this machine.
    const resolve = async () => (lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const url = `https://rebind.example:${port}/hook`;
    await expect(vetTarget(url, { allowPrivate: false, resolve })).resolves.toMatchObject({ address: '93.184.216.34' });
    const result = await sendWebhook({ url, headers: {}, body: '{}' }, { allowPrivate: false, resolve });
    expect(result).toMatchObject({ kind: 'refused', error: expect.stringMatching(/loopback address \(127\.0\.0\.1\)/) });
    expect(hits).toBe(before);
  });

  it('connects to the address it checked, not to a second lookup', async () => {
    // The resolver says 127.0.0.1; the host name itself resolves nowhere, so only the pinned address can work.
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const result = await sendWebhook(message('/hook', 'receiver.invalid'), { allowPrivate: true, resolve });
    expect(result).toMatchObject({ kind: 'answered', statusCode: 204 });
  });

  it('reports a redirect without following it', async () => {
    const before = hits;
    const result = await sendWebhook(message('/redirect'), { allowPrivate: true });
    expect(result).toMatchObject({ kind: 'answered', statusCode: 302 });
    expect(hits).toBe(before + 1);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await sendWebhook({ url: `http://127.0.0.1:${freePort}/`, headers: {}, body: '{}' }, { allowPrivate: true });
    expect(result).toMatchObject({ kind: 'network-error', error: 'Connection refused' });
  });
});
