const m = await import(process.argv[2]);
for (const app of m.CHAT_ONLY_APPS) { const r = await m.bundleChatOnlyApp(app); console.log(app.name, 'start', r.gzip, 'firstCall', r.firstCallGzip, 'all', r.allChunksGzip, 'chunks', r.chunks); }
