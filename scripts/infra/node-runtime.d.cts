// Types of node-runtime.cjs (plain CommonJS so that it starts on an old Node) for the TypeScript that uses it.
export declare const PINNED: { version: string; integrity: Record<string, string> };
export declare const MIN_MAJOR: number;
export declare function needsPinnedNode(version: string): boolean;
export declare function platformPackage(platform: string, arch: string): string;
export declare function toolsCache(env: Record<string, string | undefined>, homedir: string): string;
export declare function runtimeDir(cache: string, version: string): string;
export declare function runtimeBinary(dir: string): string;
export declare function envWithNode<E extends Record<string, string | undefined>>(env: E, nodeBin: string): E;
export declare function sha512Integrity(file: string): string;
export declare function ensurePinnedNode(opts?: { version?: string; cache?: string; platform?: string; arch?: string; integrity?: Record<string, string> }): string;
export declare function reexecUnlessSupported(file: string): boolean;
export declare class RuntimeError extends Error {}
