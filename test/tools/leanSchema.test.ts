import { describe, expect, test } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { oneLine } from '../../tools/sentences.js';
import { leanOutputSchema } from '../../tools/leanSchema.js';
import { sharedDefinitions } from '../../tools/sharedDefs.js';
import type { JsonSchema } from '../../tools/jsonSchema.js';

describe('one line', () => {
  test('the first sentence; a full stop in brackets or after an abbreviation does not end it', () => {
    expect(oneLine('Opening family (e.g. Sicilian Defense). More.')).toBe('Opening family (e.g. Sicilian Defense).');
    expect(oneLine('Where the numbers come from. The engine review of this service.')).toBe('Where the numbers come from.');
  });
});

describe('the lean output schema', () => {
  const schema = {
    type: 'object',
    description: 'The answer. With a second sentence.',
    properties: {
      description: { type: 'string', description: 'A field named description', minLength: 1 },
      required: { type: 'array', items: { type: 'string', enum: ['description', 'required'] }, description: 'Names' },
      point: { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }], description: 'A point; null when none' },
      result: { anyOf: [{ type: 'string', enum: ['win', 'draw'] }, { type: 'null' }] },
      version: { type: 'string', const: 'v1' },
      rating: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      byClass: { type: 'object', additionalProperties: { type: 'integer' } },
    },
    required: ['description', 'required', 'point'],
    $defs: { Point: { type: ['object', 'null'], properties: { x: { type: 'number', description: 'X' } }, required: ['x'], description: 'A point. Two numbers.' } },
  };

  test('no description or `required`; structure and value sets kept, a leaf’s primitive type not (worked by hand)', () => {
    expect(leanOutputSchema(schema)).toEqual({
      type: 'object',
      properties: {
        // A field named description or required is a field, not a keyword.
        description: {},
        required: { type: 'array', items: { enum: ['description', 'required'] } },
        point: { anyOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }] },
        // A nullable enum is one value set with null in it; a nullable number, anything.
        result: { enum: ['win', 'draw', null] },
        version: { const: 'v1' },
        rating: {},
        byClass: { type: 'object', additionalProperties: {} },
      },
      $defs: { Point: { type: ['object', 'null'], properties: { x: {} } } },
    });
  });

  test('the full schema is not touched (OpenAPI and the schema resource use it)', () => {
    const before = JSON.stringify(schema);
    leanOutputSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });
});

describe('shared definitions', () => {
  const colour = { enum: ['white', 'black'] };
  const result = { enum: ['win', 'draw', 'loss', 'abandoned', 'unknown'] };
  const game = { type: 'object', properties: { colour, result, opponent: {} } };

  test('a repeated subschema is defined once; properties several objects share go into one definition beside their own', () => {
    const out = sharedDefinitions({
      type: 'object',
      properties: {
        best: game,
        worst: game,
        white: { type: 'object', properties: { colour, result, games: {}, share: {} } },
        black: { type: ['object', 'null'], properties: { colour, result, games: {}, rating: {} } },
      },
    });
    // Worked by hand with the gains of tools/sharedDefs.ts. Repeats: `game` (144 bytes, twice: (144 − 27) × 2 −
    // (144 + 12) = 78) beats the result enum (53 bytes, four times: 26 × 4 − 65 = 39) and becomes Shared; the
    // enum, left three times (in Shared, white, black: 26 × 3 − 65 = 13), is Shared2; colour's enum (26 bytes)
    // is too short. Shared properties: white and black share colour, result and games (85 bytes, two holders:
    // (85 − 31) × 2 − (85 + 34) < 0), but colour and result alone (74 bytes) are in all three objects:
    // (74 − 31) × 3 − (74 + 34) = 21, so they become Common.
    expect(out).toEqual({
      type: 'object',
      properties: {
        best: { $ref: '#/$defs/Shared' },
        worst: { $ref: '#/$defs/Shared' },
        white: { type: 'object', properties: { games: {}, share: {} }, $ref: '#/$defs/Common' },
        black: { type: ['object', 'null'], properties: { games: {}, rating: {} }, $ref: '#/$defs/Common' },
      },
      $defs: {
        Shared: { type: 'object', properties: { opponent: {} }, $ref: '#/$defs/Common' },
        Shared2: result,
        Common: { properties: { colour, result: { $ref: '#/$defs/Shared2' } } },
      },
    });
    
  });

  test('validation is unchanged: the SDK’s validator accepts and refuses the same answers', () => {
    const full: JsonSchema = {
      type: 'object',
      properties: {
        white: { type: 'object', properties: { colour, result, games: { type: 'integer' }, share: { type: 'number' } } },
        black: { type: ['object', 'null'], properties: { colour, result, games: { type: 'integer' }, rating: { type: 'integer' } } },
      },
    };
    const shared = sharedDefinitions(full);
    expect(shared.$defs).toBeDefined();
    const [a, b] = [full, shared].map((s) => new AjvJsonSchemaValidator().getValidator(s as never));
    const answers = [
      { white: { colour: 'white', result: 'win', games: 3, share: 50 }, black: null },
      { white: { colour: 'white', result: 'win', games: 3 }, black: { colour: 'black', result: 'loss', games: 1, rating: 1500 } },
      { white: { colour: 'red', result: 'win', games: 3 }, black: null },
      { white: { colour: 'white', result: 'win', games: 'three' }, black: null },
      { white: { colour: 'white' }, black: { result: 'lost' } },
      { white: 'none', black: null },
    ];
    expect(answers.map((x) => a(x).valid)).toEqual([true, true, false, false, false, false]);
    expect(answers.map((x) => b(x).valid)).toEqual(answers.map((x) => a(x).valid));
  });
});
