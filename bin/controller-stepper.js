#!/usr/bin/env node
'use strict';
// The command line is bundled to out/cli.js by `npm run build` (run by `npm install`).
require('../out/cli.js');
