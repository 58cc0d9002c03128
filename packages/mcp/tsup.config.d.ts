declare const _default: import("tsup").Options[] | import("tsup").Options | ((overrideOptions: import("tsup").Options) => import("tsup").Options[] | import("tsup").Options | Promise<import("tsup").Options[] | import("tsup").Options>);
export default _default;
