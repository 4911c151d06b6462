/**
 * @module cli-commands
 * Commands areas add to the command line (seed, import, check-in key). Each names itself, its usage
 * line and what it runs.
 */
import type { App } from './app.js';
import type { Config } from './config.js';

export interface CommandInput {
  config: Config;
  values: Record<string, string | boolean | undefined>;
  args: string[];
  withApp<T>(fn: (app: App) => Promise<T>): Promise<T>;
  print(data: Record<string, unknown>, human: string): void;
}

export interface CommandExtension {
  name: string;
  usage: string;
  run(input: CommandInput): Promise<number>;
}

export const commandExtensions: CommandExtension[] = [];
