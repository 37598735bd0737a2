/** The Sentinel group lives in bench/ since the load test's failover mode (`npm run load -- --failover`) runs one too. */
export {
  MASTER_NAME,
  type SentinelGroup,
  startSentinelGroup,
  until,
} from "../../bench/redis/sentinel-group.js";
