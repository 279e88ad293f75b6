// HealthSignInSchemaSemantics: what JSON Schema 2020-12's keywords mean, exactly, for the values this SDK reads and writes:
// ECMA-262 patterns, the grammars of the formats the schema language claims, JSON numbers compared and divided by
// their decimal value, and strings compared by code points.
//
// The generator uses it to check a schema's own values (a `default`, a `pattern`'s syntax) and the runtime to decode
// and validate. It depends on nothing, not even Foundation's regular expressions, whose semantics differ.
