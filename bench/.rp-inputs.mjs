const m = await import(process.argv[2]);
for (const app of m.CHAT_ONLY_APPS) { const r = await m.bundleChatOnlyApp(app); console.log(app.name, r.inputs.reduce((a,[,b])=>a+b,0)); for (const [f,b] of r.inputs.slice(0,45)) console.log('  ',b,f); }
