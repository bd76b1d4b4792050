/* sparsegrid/cpu_blocked_t_port.h -- the portable instance's operations for cpu_blocked_t_gs.h
 * (W = 1: one value per "vector", no transpose), included once per precision by cpu_blocked_t.h;
 * cpu_blocked_t_gs.h undefines them after each instantiation.  No include guard on purpose. */
#define SGBT_W 1
#define SGBT_ISA port
#define SGBT_TARGET
#define SGBT_LOADU(p) (*(p))
#define SGBT_LOADA(p) (*(p))
#define SGBT_STOREU(p, x) (*(p) = (x))
#define SGBT_STOREA(p, x) (*(p) = (x))
#define SGBT_ZERO() 0
#define SGBT_TRANSPOSE(r) ((void)(r))
#define SGBT_COMBINE(p, c, a) ((void)(p), (c))
