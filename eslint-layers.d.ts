/** Types of eslint-layers.js (plain JavaScript, so ESLint can load it without a build). */
import type { Linter } from 'eslint';

/** One ESLint config block per layer of src/, and one for the surfaces. */
export declare const layerConfigs: Linter.Config[];
