/**
 * @module remote/extension-registry
 * Client of the extension registry (`REMOTE_EXTENSIONS_URL`): `GET {endpoint}/extensions/{slug}.json`
 * answers a package manifest `{slug, name, version, description}`. Timeouts and bad answers are
 * {@link ExtensionRegistryError}s with a plain message.
 */

export const REGISTRY_TIMEOUT_MS = 10_000;
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
const MAX_MANIFEST_BYTES = 64 * 1024;

export interface ExtensionManifest {
  slug: string;
  name: string;
  version: string;
  description: string;
}

export class ExtensionRegistryError extends Error {}

/** True when `slug` is a well-formed extension slug. */
export function isExtensionSlug(slug: string): boolean {
  return SLUG.test(slug);
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max && !/[\u0000-\u001f]/.test(value) ? value : undefined;
}

/** The manifest of `slug` from the registry at `endpoint`. */
export async function fetchManifest(endpoint: string, slug: string, fetchImpl: typeof fetch = fetch): Promise<ExtensionManifest> {
  if (!isExtensionSlug(slug)) throw new ExtensionRegistryError(`"${slug}" is not an extension slug.`);
  let res: Response;
  try {
    res = await fetchImpl(`${endpoint}/extensions/${slug}.json`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS), redirect: 'error' });
  } catch (e) {
    throw new ExtensionRegistryError(`The extension registry could not be reached: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (res.status === 404) throw new ExtensionRegistryError(`The extension registry has no extension "${slug}".`);
  if (!res.ok) throw new ExtensionRegistryError(`The extension registry answered ${res.status}.`);
  const body = await res.text();
  if (body.length > MAX_MANIFEST_BYTES) throw new ExtensionRegistryError('The extension manifest is too large.');
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(body) as Record<string, unknown>;
  } catch {
    throw new ExtensionRegistryError('The extension registry answered with invalid JSON.');
  }
  const manifest = { slug: text(data.slug, 100), name: text(data.name, 200), version: text(data.version, 40), description: text(data.description, 2000) ?? '' };
  if (manifest.slug !== slug || !manifest.name || !manifest.version || !/^\d+(\.\d+){0,3}([-+][\w.]+)?$/.test(manifest.version)) {
    throw new ExtensionRegistryError(`The manifest of "${slug}" is invalid (slug, name and a version such as 1.2.0 are required).`);
  }
  return manifest as ExtensionManifest;
}
