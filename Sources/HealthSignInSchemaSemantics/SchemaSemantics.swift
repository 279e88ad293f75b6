// HealthSignInSchemaSemantics: what JSON Schema 2020-12's keywords mean, exactly, for the values this SDK reads and writes:
// the assertions themselves (`SchemaKeyword`), instance equality (`SchemaInstance`), ECMA-262 patterns, the grammars
// of the formats the schema language claims, JSON numbers compared and divided by their decimal value and judged
// whole by their value (`JSONIntegerValue`), and strings compared by code points.
//
// The generator uses it to check a schema's own values (a `default`, a `pattern`'s syntax) and the runtime to decode
// and validate, so that the two evaluate every keyword alike. It depends on nothing, not even Foundation's regular expressions, whose semantics differ.
