// The stylesheet's check, run by `npm run typecheck` (so by the build and the test suite): a
// syntax error (an unclosed block once silently dropped a third of the rules) fails it, and
// so do the mistakes a browser ignores without a word.
export default {
  rules: {
    // Plain CSS, no nesting: a rule found inside another is a block someone forgot to close.
    "max-nesting-depth": 0,
    "block-no-empty": true,
    "color-no-invalid-hex": true,
    "declaration-block-no-duplicate-properties": [true, { ignore: ["consecutive-duplicates-with-different-values"] }],
    "declaration-block-no-shorthand-property-overrides": true,
    "font-family-no-missing-generic-family-keyword": true,
    "function-calc-no-unspaced-operator": true,
    "no-duplicate-at-import-rules": true,
    "no-invalid-double-slash-comments": true,
    "no-invalid-position-at-import-rule": true,
    "property-no-unknown": true,
    "selector-pseudo-class-no-unknown": true,
    "selector-pseudo-element-no-unknown": true,
    "selector-type-no-unknown": [true, { ignore: ["custom-elements"] }],
    "unit-no-unknown": true,
    "string-no-newline": true,
    "keyframe-declaration-no-important": true,
    "media-feature-name-no-unknown": true,
    "at-rule-no-unknown": true,
    "custom-property-no-missing-var-function": true,
  },
};
