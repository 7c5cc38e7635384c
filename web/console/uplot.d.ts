// Types of /console/assets/uplot.js, which the server serves from the uplot package's ESM build
// (src/modules/console/routes.ts VENDOR): the console imports it as './uplot.js'.
import uPlot from 'uplot';
export default uPlot;
