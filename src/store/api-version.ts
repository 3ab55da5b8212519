/**
 * The version of the `Store` interfaces (`engram/store`). They are experimental: the parts are
 * still being reshaped, so a custom backend is written against one version, and this number says
 * which one the installed package expects (as the AI SDK's `specificationVersion` does for the
 * models third parties implement).
 */

/**
 * The `Store` interfaces' version. It rises with every change to them — in any release while
 * they are experimental — so a backend written against another version can say so at startup
 * instead of failing at its first call. The release notes (CHANGELOG.md) say what changed.
 */
export const STORE_API_VERSION = 1;
