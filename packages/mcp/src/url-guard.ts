import { lookup } from 'node:dns/promises';
import { isIP, isIPv6, type LookupFunction } from 'node:net';
import { type AddressClass, classifyAddress } from './address-class';

/** A non-public address a URL download would connect to, as `allowPrivateUrls` is asked about it. */
export interface PrivateUrlTarget {
  /** The URL's host name: an IP address (IPv6 without brackets) or a DNS name. */
  hostname: string;
  /** The address the server would connect to (the host itself, or what the name resolves to). */
  address: string;
  /** The URL's port (80 / 443 when it names none). */
  port: number;
  /** Why the address is not public. */
  addressClass: AddressClass;
}

/**
 * Which non-public addresses URL downloads may reach: `false` none (the default), `true` all, or
 * a function that allows some (an internal image host: its address and port).
 */
export type PrivateUrlPolicy = boolean | ((target: PrivateUrlTarget) => boolean);

/** Every address a host name resolves to (IPv4 or IPv6, as text). */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** A URL download refused because of where it leads; the message names the host, never the path or query. */
export class UrlRefusedError extends Error {
  override readonly name = 'UrlRefusedError';
  /** The refused URL's host (with its port when it names one). */
  readonly host: string;
  /** What the model can do instead, in the tool's words (set by media-input.ts); see FileAccessError. */
  whatToDo: string | undefined;

  constructor(host: string, message: string) {
    super(message);
    this.host = host;
  }
}

const PHRASES: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address, not on the public internet',
};

/** The system resolver (`getaddrinfo`: `/etc/hosts` included), every address, in its order. */
const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** `[::1]` → `::1`: a URL's IPv6 host name comes in brackets. */
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Where URL downloads may connect: by default only to public internet addresses. A host that is
 * an IP address (the URL parser has already turned `2130706433`, `0x7f.1` and `017700000001` into
 * `127.0.0.1`) is judged as written; a name by every address it resolves to, all of which must
 * pass. `lookupFor` gives node:net the resolution it connects with, vetted, so the addresses
 * judged are the ones connected to (no second look-up a rebinding DNS server could answer
 * differently).
 */
export class UrlGuard {
  readonly #policy: PrivateUrlPolicy;
  readonly #resolve: HostResolver;

  constructor(options: { allowPrivateUrls?: PrivateUrlPolicy; resolveHost?: HostResolver } = {}) {
    this.#policy = options.allowPrivateUrls ?? false;
    this.#resolve = options.resolveHost ?? systemResolver;
  }

  /** Whether every address is allowed (nothing to judge before handing a URL to a custom fetch). */
  get allowsAll(): boolean {
    return this.#policy === true;
  }

  /**
   * Refuses a URL whose host is an IP address that may not be reached. `via`: the host of the URL
   * that redirected here.
   */
  checkHost(url: URL, via?: string): void {
    const hostname = bare(url.hostname);
    if (isIP(hostname) !== 0) this.#judge(url, hostname, 'is', via);
  }

  /** The addresses of the URL's host (itself when it is an IP address), every one judged. */
  async addressesOf(url: URL, via?: string): Promise<string[]> {
    const hostname = bare(url.hostname);
    if (isIP(hostname) !== 0) {
      this.#judge(url, hostname, 'is', via);
      return [hostname];
    }
    const addresses = [...(await this.#resolve(hostname))];
    if (addresses.length === 0) {
      throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    }
    for (const address of addresses) this.#judge(url, address, 'resolves to', via);
    return addresses;
  }

  /**
   * A `lookup` for node:http(s) requests to `url`: this guard's resolver, every address judged
   * (a refusal is the connection's error), the judged addresses the ones connected to.
   */
  lookupFor(url: URL, via?: string): LookupFunction {
    return (_hostname, options, callback) => {
      this.addressesOf(url, via).then(
        (addresses) => {
          const entries = addresses
            .map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }))
            .filter((entry) => !options.family || entry.family === options.family);
          const first = entries[0];
          if (first === undefined) {
            const error = Object.assign(new Error('no address of the requested family'), {
              code: 'ENOTFOUND',
            });
            callback(error, '', 0);
          } else if (options.all) callback(null, entries);
          else callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }

  #judge(url: URL, address: string, verb: 'is' | 'resolves to', via: string | undefined): void {
    const addressClass = classifyAddress(address);
    if (addressClass === undefined || this.#policy === true) return;
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const hostname = bare(url.hostname);
    if (
      typeof this.#policy === 'function' &&
      this.#policy({ hostname, address, port, addressClass })
    ) {
      return;
    }
    const subject =
      via === undefined
        ? `the URL's host ${url.host}`
        : `the download from ${via} was redirected to ${url.host}, which`;
    throw new UrlRefusedError(
      url.host,
      `${subject} ${verb} ${PHRASES[addressClass]}; this server downloads only from public internet addresses`,
    );
  }
}
