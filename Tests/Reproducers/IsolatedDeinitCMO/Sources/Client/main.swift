import Library

// Creating (and so releasing) the actor in another module is enough.
let device = Device()
_ = device
