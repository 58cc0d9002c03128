// docs/gateway-protocol.md §4.5 (structured output: the runnable `withStructuredOutput` returns,
// built when it first runs).
import { Runnable, type RunnableConfig } from '@langchain/core/runnables';

/**
 * A runnable built on its first run (from a lazily loaded part), then delegated to as
 * `RunnableBinding` delegates to what it binds: it starts no run of its own, so a trace shows the
 * built runnable's runs alone, as when it was built at once. A build that fails (its part could
 * not be loaded) is not kept: the next run builds it again.
 */
export class LazyRunnable<RunInput, RunOutput> extends Runnable<RunInput, RunOutput> {
  static override lc_name(): string {
    return 'LazyRunnable';
  }

  lc_namespace = ['infergate', 'runnables'];
  readonly #build: () => Promise<Runnable<RunInput, RunOutput>>;
  #built: Runnable<RunInput, RunOutput> | undefined;

  constructor(build: () => Promise<Runnable<RunInput, RunOutput>>) {
    super();
    this.#build = build;
  }

  override async invoke(input: RunInput, options?: Partial<RunnableConfig>): Promise<RunOutput> {
    return (await this.#runnable()).invoke(input, options);
  }

  override async *_streamIterator(
    input: RunInput,
    options?: Partial<RunnableConfig>,
  ): AsyncGenerator<RunOutput> {
    yield* (await this.#runnable())._streamIterator(input, options);
  }

  async #runnable(): Promise<Runnable<RunInput, RunOutput>> {
    this.#built ??= await this.#build();
    return this.#built;
  }
}
