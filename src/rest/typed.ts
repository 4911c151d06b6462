/**
 * @module rest/typed
 * Typed parameters: a handler sees the types its args declare (`type: 'integer'` → number,
 * `'boolean'` → boolean, `'array'` with `items` → a typed list, `enum` → the union of its values;
 * required or defaulted args are present, the rest optional). An arg whose own `sanitize` makes
 * another type says so with {@link typedArg}.
 *
 * @example
 * const LIST_ARGS = defineArgs({ order: { type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' }, include: idListArg('IDs') });
 * async function list(req: TypedRequest<typeof LIST_ARGS>, ctx: AppContext) {
 *   req.params.order;   // 'ASC' | 'DESC'
 *   req.params.include; // number[] | undefined
 * }
 * // in the route: endpoint({ methods: READABLE, args: LIST_ARGS, permission: allowAll, handler: list })
 */
import type { ArgSchema, ArgSchemas, EndpointDef, RestRequest } from './route.js';

/** An arg schema that states the type its sanitiser produces (for args with their own `sanitize`). */
export type TypedArg<T> = ArgSchema & { readonly __value?: T };

/** Marks `arg` as producing values of type `T` (no runtime change). */
export function typedArg<T>(arg: ArgSchema): TypedArg<T> {
  return arg as TypedArg<T>;
}

type FromSchema<A> = A extends { readonly enum: readonly (infer E)[] }
  ? E
  : A extends { readonly type: 'integer' | 'number' }
    ? number
    : A extends { readonly type: 'boolean' }
      ? boolean
      : A extends { readonly type: 'string' }
        ? string
        : A extends { readonly type: 'array'; readonly items: infer I }
          ? ValueOf<I>[]
          : A extends { readonly type: 'array' }
            ? unknown[]
            : A extends { readonly type: 'object' }
              ? Record<string, unknown>
              : unknown;

/** The sanitised value type of one arg. */
export type ValueOf<A> = A extends { readonly __value?: infer T } ? (unknown extends T ? FromSchema<A> : T) : FromSchema<A>;

type Present<A> = A extends { readonly required: true } ? true : A extends { readonly default: {} } ? true : A extends { readonly defaultAt: (now: Date) => {} } ? true : false;
type PresentKeys<S> = { [K in keyof S]: Present<S[K]> extends true ? K : never }[keyof S];
type OptionalKeys<S> = Exclude<keyof S, PresentKeys<S>>;

/** The `params` an endpoint's handler sees for args `S` (undeclared parameters stay `unknown`). */
export type ParamsOf<S> = { [K in PresentKeys<S>]: ValueOf<S[K]> } & { [K in OptionalKeys<S>]?: ValueOf<S[K]> } & Record<string, unknown>;

/** A request whose `params` are typed by the endpoint's args. */
export type TypedRequest<S> = Omit<RestRequest, 'params'> & { params: ParamsOf<S> };

/** Declares args keeping their literal types (for {@link ParamsOf}). */
export function defineArgs<const S extends ArgSchemas>(args: S): S {
  return args;
}

/** An endpoint whose handler is typed by its args. */
export interface TypedEndpointDef<S extends ArgSchemas, C> extends Omit<EndpointDef<C>, 'args' | 'handler'> {
  args: S;
  handler: (req: TypedRequest<S>, ctx: C) => unknown | Promise<unknown>;
}

/** Declares an endpoint whose handler sees typed params (the dispatcher fills them from `args`). */
export function endpoint<const S extends ArgSchemas, C = any>(def: TypedEndpointDef<S, C>): EndpointDef<C> {
  return def as unknown as EndpointDef<C>;
}
