/** The real `redis-server` helper lives in bench/ since the load test's failover mode starts one too. */
export { type RedisServer, startRedis } from "../../bench/redis/redis-server.js";
