import type { z } from 'zod';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Ties a zod schema to the one TypeScript declaration of its shape (src/chess/types.ts and
 * friends): the schema adds descriptions and validation, the declaration owns the fields. A field
 * added, dropped or retyped on either side is a compile error, so the two can never drift.
 */
export function declaredAs<T>() {
  return <S extends z.ZodType<T>>(schema: S, ..._exact: Same<z.output<S>, T> extends true ? [] : [error: 'schema and declaration differ']): S =>
    schema;
}
